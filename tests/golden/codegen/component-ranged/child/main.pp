config input "string" {
}
resource inner "simple:index:Resource" {
  value = "inner-${input}"
}
output result {
  value = inner.value
}
