package {
  baseProviderName = "ref-ref"
  baseProviderVersion = "12.0.0"
}
