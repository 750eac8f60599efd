tok = "a:b:C"

component c {
  token = tok
}
