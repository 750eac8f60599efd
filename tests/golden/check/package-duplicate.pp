package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
}

package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
}
