package {
  baseProviderName = "module-format"
  baseProviderVersion = "29.0.0"
}
