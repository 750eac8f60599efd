resource a "simple:index:Resource" {
  value = true
  options {
    hooks = ["x"]
  }
}
