resource a "simple:index:Resource" {
  value = true
  extra = 1
}
