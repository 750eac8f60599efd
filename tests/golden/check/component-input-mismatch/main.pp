component c "./comp" {
  name = ["a", "b"]
}
