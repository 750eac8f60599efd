# Hooks are named in the hooks option; the run records them by name.
hook resource "h" {
  command = ["true"]
}
resource a "simple:index:Resource" {
  value = true
  options {
    hooks = { beforeCreate = [h], afterCreate = [h] }
  }
}
