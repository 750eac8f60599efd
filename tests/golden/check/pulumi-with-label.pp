pulumi "x" {
  requiredVersionRange = ">=3.0.0"
}
