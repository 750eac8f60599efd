package {
  baseProviderName = "enum"
  baseProviderVersion = "30.0.0"
}
