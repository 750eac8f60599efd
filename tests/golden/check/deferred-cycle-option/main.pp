# A registration waits for its range even when the range reads a component
# evaluated after it: one's range reads two's output, which waits for two's
# registration, which waits for two's input, one's instances.
component "two" "./held" {
  input = length(one) == 1
}

component "one" "./held" {
  options {
    range = two.out ? 1 : 2
  }
  input = true
}
