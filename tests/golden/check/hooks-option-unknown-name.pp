hook resource "h" {
  command = ["true"]
}

resource a "simple:index:Resource" {
  value = true
  options {
    hooks = { beforeDestroy = [h] }
  }
}
