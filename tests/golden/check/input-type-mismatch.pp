resource a "simple:index:Resource" {
  value = [true]
}
