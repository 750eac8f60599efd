config "input" "bool" {}

# Registered as a child of the component: it waits for the component's
# registration, and so for every input of the component.
resource "child" "simple:index:Resource" {
  value = false
}

output "out" {
  value = "${child.value}"
}
