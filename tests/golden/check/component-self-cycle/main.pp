component c "./comp" {
  name = c.greeting
}
