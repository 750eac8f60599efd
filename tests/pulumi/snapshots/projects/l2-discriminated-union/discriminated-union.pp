package {
  baseProviderName = "discriminated-union"
  baseProviderVersion = "31.0.0"
}
