hook error "e" {
  command = ["true"]
}

resource a "simple:index:Resource" {
  value = true
  options {
    hooks = { beforeCreate = [e] }
  }
}
