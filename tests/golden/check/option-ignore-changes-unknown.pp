resource a "simple:index:Resource" {
  value = true
  options {
    ignoreChanges = [nothing]
  }
}
