// One resource of the conformance suite's `simple` package and an output.
resource "r" "simple:index:Resource" {
  value = true
}

output "value" {
  value = r.value
}
