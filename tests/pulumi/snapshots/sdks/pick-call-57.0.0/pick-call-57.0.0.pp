package {
  baseProviderName = "pick-call"
  baseProviderVersion = "57.0.0"
}
