package {
  baseProviderName = "my package"
}
