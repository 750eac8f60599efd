config "input" "bool" {}

# Both resources are the component's children: they wait for its
# registration.  Only "flipped" reads the input.
resource "steady" "simple:index:Resource" {
  value = true
}

resource "flipped" "simple:index:Resource" {
  value = !input
}

output "steady" {
  value = steady.value
}

output "flipped" {
  value = flipped.value
}
