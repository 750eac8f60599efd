package {
  baseProviderName = "discriminated-union-many"
  baseProviderVersion = "49.0.0"
}
