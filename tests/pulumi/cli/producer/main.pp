// The first version of the end-to-end test's producer stack
// (tests/pulumi/cli.sh): a plain and a secret config value, stashes of
// the engine's built-in provider and a local component.
config "greeting" "string" {}

config "password" "string" {}

resource "kept" "pulumi:index:Stash" {
  input = "kept"
}

resource "changed" "pulumi:index:Stash" {
  input = "${greeting}, world"
}

resource "removed" "pulumi:index:Stash" {
  input = "removed"
}

resource "vault" "pulumi:index:Stash" {
  input = password
}

component "part" "./part" {
  prefix = greeting
}

output "message" {
  value = changed.input
}

output "password" {
  value = vault.output
}

output "partValue" {
  value = part.value
}
