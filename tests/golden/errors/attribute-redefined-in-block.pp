resource r "pkg:index:Thing" {
  size = 1
  name = "x"
  size = 2
}
