# Resources with schemas: inputs, attribute access, ranges and options.
resource flag "simple:index:Resource" {
  value = true
}

resource prims "primitive:index:Resource" {
  boolean     = flag.value
  float       = 3.5
  integer     = 42
  string      = "text"
  numberArray = [1, 2.5]
  booleanMap  = { a = true }
}

resource conditional "simple:index:Resource" {
  value = true
  options {
    range = flag.value
  }
}

resource counted "simple:index:Resource" {
  value = range.value > 1
  options {
    range = 3
  }
}

resource listed "simple:index:Resource" {
  value = range.value
  options {
    range = [true, false]
  }
}

resource mapped "simple:index:Resource" {
  value = range.key == "a"
  options {
    range = { a = 1, b = 2 }
  }
}

resource provider "pulumi:providers:simple" {
}

resource withOptions "simple:index:Resource" {
  value = false
  options {
    parent                  = flag
    provider                = provider
    dependsOn               = [flag, prims]
    protect                 = true
    retainOnDelete          = false
    deleteBeforeReplace     = true
    ignoreChanges           = [value]
    hideDiffs               = [value]
    replaceOnChanges        = [value]
    additionalSecretOutputs = [value]
    version                 = "2.0.0"
    pluginDownloadURL       = "https://example.com"
    customTimeouts          = { create = "5m", delete = "1h" }
    aliases                 = ["urn:a", { name = "old" }]
    deletedWith             = flag
    replaceWith             = [flag]
    import                  = "existing-id"
    replacementTrigger      = flag.value
  }
}

stack = "pulumi:pulumi:StackReference"

resource ref "pulumi:pulumi:StackReference" {
  name = "org/project/stack"
}

id = flag.id
urn = flag.urn
value = flag.value
maybe = conditional.value
third = counted[2].value
listedValues = listed[*].value
fromMap = mapped["a"].id
refOutputs = ref.outputs
