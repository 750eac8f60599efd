resource a "simple:index:Resource" {
  value = true
  options {
    customTimeouts = { create = [1] }
  }
}
