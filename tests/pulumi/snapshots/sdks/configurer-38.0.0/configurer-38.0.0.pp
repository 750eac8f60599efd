package {
  baseProviderName = "configurer"
  baseProviderVersion = "38.0.0"
}
