package {
  baseProviderName = "parameterized"
  parameterization {
    version = "2.0.0"
    value   = "SGk="
  }
}
