package {
  baseProviderName = "optionalprimitive"
  baseProviderVersion = "34.0.0"
}
