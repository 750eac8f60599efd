package {
  baseProviderName = "simple-invoke"
  baseProviderVersion = "10.0.0"
}
