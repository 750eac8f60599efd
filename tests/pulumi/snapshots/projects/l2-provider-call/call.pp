package {
  baseProviderName = "call"
  baseProviderVersion = "15.7.9"
}
