# getOutput reads a stack reference's outputs; secret outputs stay secret.
resource ref "pulumi:pulumi:StackReference" {
  name = "organization/other/dev"
}
output plain {
  value = getOutput(ref, "plain")
}
output hidden {
  value = getOutput(ref, "pw")
}
output missing {
  value = [getOutput(ref, "nope")]
}
