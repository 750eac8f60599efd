output x "tuple(string)" {
  value = ["a"]
}
