package {
  baseProviderName = "plain"
  baseProviderVersion = "13.0.0"
}
