# A failing afterCreate hook fails the registration: the run's error says
# which hook and how its command ended, and a command that cannot be
# computed fails the same way.
hook resource "failing" {
  command = ["sh", "-c", "echo out of disk >&2; exit 2"]
}

hook resource "broken" {
  command = [notImplemented("a command")]
}

resource "first" "simple:index:Resource" {
  value = true
  options {
    hooks = {
      afterCreate = [failing]
    }
  }
}

resource "second" "simple:index:Resource" {
  value = false
  options {
    hooks = {
      beforeCreate = [broken]
    }
  }
}
