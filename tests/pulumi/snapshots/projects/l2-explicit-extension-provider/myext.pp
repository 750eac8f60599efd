package {
  baseProviderName = "extbase"
  baseProviderVersion = "45.0.0"
  parameterization {
    name = "myext"
    version = "2.0.0"
    value = "SGVsbG8="
  }
}
