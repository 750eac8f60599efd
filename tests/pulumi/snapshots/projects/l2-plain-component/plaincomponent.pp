package {
  baseProviderName = "plaincomponent"
  baseProviderVersion = "36.0.0"
}
