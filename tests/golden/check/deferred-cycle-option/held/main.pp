config "input" "bool" {}

# A child of the component: it waits for the component's registration.
resource "child" "simple:index:Resource" {
  value = true
}

output "out" {
  value = child.value
}
