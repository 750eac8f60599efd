package {
  baseProviderName = "borrowbase"
  baseProviderVersion = "56.0.0"
  parameterization {
    name = "myborrow"
    version = "3.0.0"
    value = "V2lkZ2V0"
  }
}
