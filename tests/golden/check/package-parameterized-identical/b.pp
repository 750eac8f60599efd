package {
  baseProviderName = "parameterized"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGk="
  }
}

# An identical definition in another file is the same package.
resource r "hipackage:index:HelloWorld" {}
