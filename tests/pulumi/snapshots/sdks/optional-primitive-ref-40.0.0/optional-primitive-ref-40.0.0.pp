package {
  baseProviderName = "optional-primitive-ref"
  baseProviderVersion = "40.0.0"
}
