package {
  baseProviderName = "any-handled"
  baseProviderVersion = "42.0.0"
}
