# A local that fails at once, read for a component's input: the component
# and what reads it fail, and the run with the local's message and location.
big = range(100000000)
component comp "./child" {
  input = "${length(big)}"
}
output fromComponent {
  value = comp.result
}
