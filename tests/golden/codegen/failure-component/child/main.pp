config input "string" {
}
resource inner "simple:index:Resource" {
  value = input == "x"
}
output result {
  value = inner.value
}
