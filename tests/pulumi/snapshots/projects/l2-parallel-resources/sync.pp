package {
  baseProviderName = "sync"
  baseProviderVersion = "3.0.0-alpha.1.internal+exp.sha.2143768"
}
