resource a "simple:index:Resource" {
  value = nope
}
