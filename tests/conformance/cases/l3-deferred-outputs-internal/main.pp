# Components that read each other's outputs where no output depends on
# itself, past what the components hold: many reads a splat over splatted,
# and holding's output reads a resource that waits for holding's
# registration, whose input reads only reading's constant output.
component "first" "./pass" {
  input = second.constant
}

component "second" "./pass" {
  input = first.constant
}

component "another" "./pass" {
  input = join(",", [for m in many : m.constant])
}

component "many" "./pass" {
  options {
    range = 2
  }
  input = "${another.constant}-${length(splatted[*].constant)}"
}

component "splatted" "./pass" {
  options {
    range = 1
  }
  input = first.out
}

component "holding" "./held" {
  input = reading.constant == "c"
}

component "reading" "./pass" {
  input = holding.out
}

output "all" {
  value = [first.out, second.out, another.out, many[1].out, splatted[0].out, reading.out]
}
