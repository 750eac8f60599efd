config x "string" {
  nullable = "yes"
}
