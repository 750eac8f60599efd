# Attributes of a discriminated union typed output: field1 is there, the
# discriminator is unknown in a preview and secret after it, and field2 is
# declared only by the member the discriminator does not select.
resource "example" "discriminated-union-marked-key:index:Example" {
  unionIn = { discriminantKind = "variant2", field2 = "in" }
}

output "field1" {
  value = example.unionOut.field1
}

output "kind" {
  value = example.unionOut.discriminantKind
}

output "field2" {
  value = try(example.unionOut.field2, "absent")
}
