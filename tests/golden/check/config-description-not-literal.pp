config x "string" {
  description = "${1}"
}
