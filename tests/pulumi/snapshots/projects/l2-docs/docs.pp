package {
  baseProviderName = "docs"
  baseProviderVersion = "28.0.0"
}
