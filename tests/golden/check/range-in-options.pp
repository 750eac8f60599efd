resource a "simple:index:Resource" {
  value = true
  options {
    range = 2
    protect = range.value > 0
  }
}
