package {
  baseProviderName = "index-mod"
  baseProviderVersion = "35.0.0"
}
