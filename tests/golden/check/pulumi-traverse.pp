pulumi {
  requiredVersionRange = ">=3.0.0"
}

x = pulumi.requiredVersionRange
