package {
  baseProviderName = "borrowbase"
  baseProviderVersion = "56.0.0"
}
