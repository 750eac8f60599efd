package {
  baseProviderName = "namespaced"
  baseProviderVersion = "16.0.0"
}
