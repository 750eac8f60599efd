package {
  baseProviderName = "names"
  baseProviderVersion = "6.0.0"
}
