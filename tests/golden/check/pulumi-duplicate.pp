pulumi {
  requiredVersionRange = ">=3.0.0"
}

pulumi {
  requiredVersionRange = ">=3.1.0"
}
