resource a "simple:index:Resource" {
  value = true
}

resource a "simple:index:Resource" {
  value = false
}
