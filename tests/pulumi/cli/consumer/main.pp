// The consumer stack of tests/pulumi/cli.sh: the producer's outputs
// through a stack reference.
config "producer" "string" {}

resource "ref" "pulumi:pulumi:StackReference" {
  name = producer
}

output "message" {
  value = getOutput(ref, "message")
}

output "password" {
  value = getOutput(ref, "password")
}
