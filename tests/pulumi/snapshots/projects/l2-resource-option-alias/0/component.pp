package {
  baseProviderName = "component"
  baseProviderVersion = "13.3.7"
}
