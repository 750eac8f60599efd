package {
  baseProviderName = "primitive-defaults"
  baseProviderVersion = "8.0.0"
}
