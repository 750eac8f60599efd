package {
  baseProviderName = "union"
  baseProviderVersion = "18.0.0"
}
