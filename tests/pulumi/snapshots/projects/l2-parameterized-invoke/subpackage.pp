package {
  baseProviderName = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name = "subpackage"
    version = "2.0.0"
    value = "SGVsbG9Xb3JsZA=="
  }
}
