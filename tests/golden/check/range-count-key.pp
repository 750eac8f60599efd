resource a "simple:index:Resource" {
  value = range.key == 0
  options {
    range = 2
  }
}
