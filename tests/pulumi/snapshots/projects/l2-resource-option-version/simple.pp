package {
  baseProviderName = "simple"
  baseProviderVersion = "26.0.0"
}
