package {
  baseProviderName = "primitive"
  baseProviderVersion = "7.0.0"
}
