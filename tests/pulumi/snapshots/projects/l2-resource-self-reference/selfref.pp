package {
  baseProviderName = "selfref"
  baseProviderVersion = "54.0.0"
}
