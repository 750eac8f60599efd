# A program whose ints a double cannot hold are secret (tests/engine/faults):
# one from a secret config value, one from secret().  The warnings that
# they were sent rounded must show no digit of them.

config hidden int {
}

resource holder "any-handled:index:Resource" {
  value = secret(9007199254740995)
}

output fromConfig {
  value = hidden
}
