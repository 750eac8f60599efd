package {
  baseProviderName    = "random"
  baseProviderVersion = "4.11.2"
  parameterization {
    name    = "terraform-provider"
    version = "0.1"
    value   = "not base64!"
  }
}
