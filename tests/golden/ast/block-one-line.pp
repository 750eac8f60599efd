# One-line blocks hold at most one attribute, on the header's line.
resource r "pkg:index:Thing" {
  options { range = 3 }
  options { dependsOn = [a, b] }
}
single { value = { a = 1, b = 2 } }
single { value = [for x in xs : x] }
