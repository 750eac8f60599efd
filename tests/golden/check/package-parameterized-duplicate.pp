# One parameterization defined twice in one file.
package {
  baseProviderName = "parameterized"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGk="
  }
}

package {
  baseProviderName = "parameterized"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGk="
  }
}
