# A longer cycle: a's output is its input, b's; b's is c's; c's output reads
# a resource whose value is c's input, a's output.
component "a" "../deferred-cycle-direct/pass" {
  input = b.out
}

component "b" "../deferred-cycle-direct/pass" {
  input = c.out
}

component "c" "./held" {
  input = a.out == "a"
}
