package {
  baseProviderName = "nestedcollections"
  baseProviderVersion = "50.0.0"
}
