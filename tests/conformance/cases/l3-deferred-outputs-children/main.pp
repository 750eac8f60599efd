# Components that read each other's outputs, each output read from a
# resource the component holds, which waits for the component's
# registration: left and right directly, single and pair through pair's
# range.  No output depends on itself, but waiting for the input that
# reads the other component would: of each mutual pair, the component
# evaluated first (right, pair) is registered without that input.

component "left" "./holder" {
  input = right.steady
}

component "right" "./holder" {
  input = left.steady
}

component "single" "./holder" {
  input = length([for p in pair : p.steady if p.steady]) == 3
}

component "pair" "./holder" {
  options {
    range = 2
  }
  input = single.steady
}

output "steady" {
  value = [left.steady, right.steady, single.steady, pair[0].steady, pair[1].steady]
}

output "flipped" {
  value = [left.flipped, right.flipped, single.flipped, pair[0].flipped, pair[1].flipped]
}
