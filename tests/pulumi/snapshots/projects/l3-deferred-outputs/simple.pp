package {
  baseProviderName = "simple"
  baseProviderVersion = "2.0.0"
}
