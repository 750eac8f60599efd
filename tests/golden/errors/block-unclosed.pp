resource r "pkg:index:Thing" {
  a = 1
  inner {
    b = 2
  }
