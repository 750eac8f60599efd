package {
  baseProviderName = "discriminated-union-marked-key"
  baseProviderVersion = "53.0.0"
}
