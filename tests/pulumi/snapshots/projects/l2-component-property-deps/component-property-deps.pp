package {
  baseProviderName = "component-property-deps"
  baseProviderVersion = "1.33.7"
}
