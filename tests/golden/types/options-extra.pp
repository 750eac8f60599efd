# The remaining resource options: hooks, providers, envVarMappings.
hook resource "announce" {
  command = ["echo", "created ${args.name}"]
}

hook error "retry" {
  command = ["./retry.sh", args.urn]
}

resource prov "pulumi:providers:simple" {
  options {
    envVarMappings = { SIMPLE_TOKEN = "token" }
  }
}

resource hooked "simple:index:Resource" {
  value = true
  options {
    hooks     = { beforeCreate = [announce], afterCreate = [announce], onError = [retry] }
    providers = [prov]
  }
}

component group {
  token = "my:index:Group"
  options {
    providers = { simple = prov }
  }
}
