config x "string" {
  secret = 1
}
