package {
  baseProviderName = "any-type-function"
  baseProviderVersion = "15.0.0"
}
