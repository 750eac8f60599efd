config x "string" {
  defualt = "a"
}
