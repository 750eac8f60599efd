package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.x"
}
