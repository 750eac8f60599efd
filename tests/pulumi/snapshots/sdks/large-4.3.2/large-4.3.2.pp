package {
  baseProviderName = "large"
  baseProviderVersion = "4.3.2"
}
