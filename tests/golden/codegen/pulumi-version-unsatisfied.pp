# A requiredVersionRange the CLI version (3.200.0) does not satisfy fails the
# run before anything is registered, even a resource written above the
# pulumi block: the version gate comes first in the evaluation order.
resource a "simple:index:Resource" {
  value = true
}
pulumi {
  requiredVersionRange = ">=3.201.0"
}
output never {
  value = a.value
}
