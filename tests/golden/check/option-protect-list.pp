resource a "simple:index:Resource" {
  value = true
  options {
    protect = [true]
  }
}
