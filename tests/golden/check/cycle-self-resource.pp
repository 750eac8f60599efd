resource a "simple:index:Resource" {
  value = a.value
}
