package {
  baseProviderName = "keywords"
  baseProviderVersion = "20.0.0"
}
