# Two components may read each other's outputs, but here each output is
# the component's input, which is the other's output: it depends on itself.
component "a" "./pass" {
  input = b.out
}

component "b" "./pass" {
  input = a.out
}
