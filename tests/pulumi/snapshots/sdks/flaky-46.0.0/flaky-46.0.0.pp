package {
  baseProviderName = "flaky"
  baseProviderVersion = "46.0.0"
}
