config "input" "bool" {}

# Registered as a child of the component: it waits for the component's
# registration, not for the component's input.
resource "child" "simple:index:Resource" {
  value = false
}

output "out" {
  value = "${child.value}"
}
