package {
  baseProviderName = "read-id-rewrite"
  baseProviderVersion = "58.0.0"
}
