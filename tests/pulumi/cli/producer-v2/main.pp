// The second version of the producer (tests/pulumi/cli.sh): `changed`
// changes, `added` is new, `removed` is gone; the rest is as it was.
config "greeting" "string" {}

config "password" "string" {}

resource "kept" "pulumi:index:Stash" {
  input = "kept"
}

resource "changed" "pulumi:index:Stash" {
  input = "${greeting}, again"
}

resource "added" "pulumi:index:Stash" {
  input = "added"
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
