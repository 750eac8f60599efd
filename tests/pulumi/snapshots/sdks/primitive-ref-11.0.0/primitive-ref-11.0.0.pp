package {
  baseProviderName = "primitive-ref"
  baseProviderVersion = "11.0.0"
}
