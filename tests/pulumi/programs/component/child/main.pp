config "flag" "bool" {}

resource "inner" "simple:index:Resource" {
  value = flag
}

output "value" {
  value = inner.value
}
