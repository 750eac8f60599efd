x = 1

resource x "simple:index:Resource" {
  value = true
}
