package {
  baseProviderName = "output"
  baseProviderVersion = "23.0.0"
}
