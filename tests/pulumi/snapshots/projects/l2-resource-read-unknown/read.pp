package {
  baseProviderName = "read"
  baseProviderVersion = "39.0.0"
}
