name = "n"

resource a "simple:index:Resource" {
  __logicalName = name
  value = true
}
