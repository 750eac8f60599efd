output o "list(string)" {
  value = 42
}
