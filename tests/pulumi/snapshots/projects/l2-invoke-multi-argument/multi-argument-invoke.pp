package {
  baseProviderName = "multi-argument-invoke"
  baseProviderVersion = "44.0.0"
}
