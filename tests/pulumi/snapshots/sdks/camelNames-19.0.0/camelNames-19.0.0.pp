package {
  baseProviderName = "camelNames"
  baseProviderVersion = "19.0.0"
}
