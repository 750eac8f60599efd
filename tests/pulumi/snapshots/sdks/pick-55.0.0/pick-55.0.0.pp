package {
  baseProviderName = "pick"
  baseProviderVersion = "55.0.0"
}
