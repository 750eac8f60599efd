package {
  baseProviderName = "kebab-names"
  baseProviderVersion = "52.0.0"
}
