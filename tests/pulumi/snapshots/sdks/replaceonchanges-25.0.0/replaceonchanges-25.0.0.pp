package {
  baseProviderName = "replaceonchanges"
  baseProviderVersion = "25.0.0"
}
