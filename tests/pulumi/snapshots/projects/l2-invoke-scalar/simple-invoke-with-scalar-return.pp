package {
  baseProviderName = "simple-invoke-with-scalar-return"
  baseProviderVersion = "17.0.0"
}
