package {
  baseProviderName = "constant"
  baseProviderVersion = "43.0.0"
}
