# A component with a source: children are named <component>-<child> and
# parented to the component; its config are inputs, its outputs registered.
resource base "simple:index:Resource" {
  value = "base"
}
component comp "./child" {
  input = base.value
}
output fromComponent {
  value = comp.result
}
