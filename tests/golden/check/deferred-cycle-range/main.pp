# The cycle runs through a family of components and a for expression over
# it: many[i].out is many's input, which is another's output, which reads
# every many[i].out.
component "another" "../deferred-cycle-direct/pass" {
  input = join(",", [for m in many : m.out])
}

component "many" "../deferred-cycle-direct/pass" {
  options {
    range = 2
  }
  input = another.out
}
