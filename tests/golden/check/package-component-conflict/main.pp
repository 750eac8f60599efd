# A component program defines a package of its parent's name with another
# parameterization: both programs' requests go to one engine, which knows
# one package by one name.
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
