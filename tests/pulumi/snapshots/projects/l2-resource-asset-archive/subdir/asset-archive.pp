package {
  baseProviderName = "asset-archive"
  baseProviderVersion = "5.0.0"
}
