package {
  baseProviderName = "exists"
  baseProviderVersion = "60.0.0"
}
