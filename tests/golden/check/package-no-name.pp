package {
  baseProviderVersion = "2.0.0"
}
