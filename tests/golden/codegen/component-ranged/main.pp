# Ranged components: one instance per element, named <component>-<key>, each
# with its own `range` and its children named <instance>-<child>.
component counted "./child" {
  options {
    range = 2
  }
  input = "n${range.value}"
}
component keyed "./child" {
  options {
    range = { left = "l", right = "r" }
  }
  input = "${range.key}=${range.value}"
}
output counted {
  value = [for c in counted : c.result]
}
output keyed {
  value = { for k, c in keyed : k => c.result }
}
