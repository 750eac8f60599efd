package {
  baseProviderName = "parameterized"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGVsbG8="
  }
}
