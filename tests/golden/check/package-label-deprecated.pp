package "simple" {
  baseProviderName = "simple"
  baseProviderVersion = "2.0.0"
}
