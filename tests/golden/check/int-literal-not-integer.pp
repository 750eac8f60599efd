config x "int" {
  default = 1.5
}
