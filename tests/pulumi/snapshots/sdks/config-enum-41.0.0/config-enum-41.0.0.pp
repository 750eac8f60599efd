package {
  baseProviderName = "config-enum"
  baseProviderVersion = "41.0.0"
}
