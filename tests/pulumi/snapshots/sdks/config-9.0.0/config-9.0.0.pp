package {
  baseProviderName = "config"
  baseProviderVersion = "9.0.0"
  baseProviderDownloadUrl = "http://example.com"
}
