component c {
  a = 1
}
