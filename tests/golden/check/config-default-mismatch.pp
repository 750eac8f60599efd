config x "list(string)" {
  default = 42
}
