# A component program may repeat its parent's package block word for word.
package {
  baseProviderName = "parameterized"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGk="
  }
}
component child "./child" {
}
