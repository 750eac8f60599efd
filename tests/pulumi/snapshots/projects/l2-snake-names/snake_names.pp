package {
  baseProviderName = "snake_names"
  baseProviderVersion = "33.0.0"
}
