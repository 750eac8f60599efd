package {
  baseProviderName = "output-only-invoke"
  baseProviderVersion = "24.0.0"
}
