component c "./comp" {
  name = "n"
  colour = "red"
}
