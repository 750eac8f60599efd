resource a "simple:index:Resource" {
  value = true
  options {
    range = "3"
  }
}
