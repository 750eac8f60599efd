package {
  baseProviderName = "scalar-returns"
  baseProviderVersion = "21.0.0"
}
