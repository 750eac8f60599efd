package {
  baseProviderName = "bytesink"
  baseProviderVersion = "47.0.0"
}
