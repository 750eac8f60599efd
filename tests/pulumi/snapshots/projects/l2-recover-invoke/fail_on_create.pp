package {
  baseProviderName = "fail_on_create"
  baseProviderVersion = "4.0.0"
}
