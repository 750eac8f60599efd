# Property-path options render paths as the runtime sends them.
resource res "simple:index:Resource" {
  value = true
  options {
    ignoreChanges           = [value]
    additionalSecretOutputs = [value]
  }
}

resource untyped "nothing:index:Thing" {
  tags    = { env = "prod", "with \"quote\"" = "q" }
  details = [{ key = "k" }]
  options {
    ignoreChanges = [tags["env"], details[0].key, tags["with \"quote\""]]
  }
}
