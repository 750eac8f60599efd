config "input" "bool" {}

# Registered as a child of the component, with the component's input as
# its value: it waits for that input.
resource "child" "simple:index:Resource" {
  value = input
}

output "out" {
  value = "${child.value}"
}
