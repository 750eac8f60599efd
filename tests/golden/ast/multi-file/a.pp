resource first "pkg:index:Thing" {
  input = "x"
}
