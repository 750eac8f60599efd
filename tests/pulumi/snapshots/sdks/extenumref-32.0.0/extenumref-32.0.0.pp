package {
  baseProviderName = "extenumref"
  baseProviderVersion = "32.0.0"
}
