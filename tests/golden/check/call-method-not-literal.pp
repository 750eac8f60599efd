resource a "simple:index:Resource" {
  value = true
}

m = "f"
x = call(a, m, {})
