package {
  baseProviderName = "output-value-input-deps"
  baseProviderVersion = "61.0.0"
}
