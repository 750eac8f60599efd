package {
  baseProviderName = "failingcomponent"
  baseProviderVersion = "59.0.0"
}
