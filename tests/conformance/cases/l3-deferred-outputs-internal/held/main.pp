config "input" "bool" {}

# The resource is registered as a child of the component, so it waits for
# the component's registration, which waits for all its inputs.
resource "held" "simple:index:Resource" {
  value = true
}

output "out" {
  value = held.value ? "held" : "not held"
}
