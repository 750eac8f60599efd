output a "string" "x" {
  value = "v"
}
