# A chain of components through a held resource with no cycle of values:
# a's output is its input, b's; b's is c's; c's output reads a resource
# that waits for c's registration.  c is evaluated first and its input
# reads a, evaluated after it, and would wait for c's registration: c's
# registration leaves it out (its deferred inputs).  a and b keep theirs.
component "a" "../../check/deferred-cycle-direct/pass" {
  input = b.out
}

component "b" "../../check/deferred-cycle-direct/pass" {
  input = c.out
}

component "c" "./held" {
  input = a.out == "a"
}
