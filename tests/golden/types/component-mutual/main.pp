# Two different components may refer to each other (program.md §10.4).
component left "./left" {
  peer = right.out
}

component right "./right" {
  peer = left.out
}
