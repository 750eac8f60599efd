component c "./comp" {
  token = "a:b:C"
}
