package {
  baseProviderName = "extbase"
  baseProviderVersion = "45.0.0"
}
