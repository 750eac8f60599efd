package {
  baseProviderName = "alpha"
  baseProviderVersion = "3.0.0-alpha.1.internal+exp.sha.12345678"
}
