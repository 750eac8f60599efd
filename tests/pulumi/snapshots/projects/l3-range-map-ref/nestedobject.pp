package {
  baseProviderName = "nestedobject"
  baseProviderVersion = "1.42.0"
}
