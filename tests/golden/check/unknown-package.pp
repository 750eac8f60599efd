resource a "nosuchpkg:index:Thing" {
  x = 1
}
