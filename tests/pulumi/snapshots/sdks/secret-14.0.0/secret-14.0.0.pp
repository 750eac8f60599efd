package {
  baseProviderName = "secret"
  baseProviderVersion = "14.0.0"
}
