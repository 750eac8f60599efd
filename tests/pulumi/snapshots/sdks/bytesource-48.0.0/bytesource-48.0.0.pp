package {
  baseProviderName = "bytesource"
  baseProviderVersion = "48.0.0"
}
