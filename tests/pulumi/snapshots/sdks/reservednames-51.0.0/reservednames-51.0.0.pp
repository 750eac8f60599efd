package {
  baseProviderName = "reservednames"
  baseProviderVersion = "51.0.0"
}
