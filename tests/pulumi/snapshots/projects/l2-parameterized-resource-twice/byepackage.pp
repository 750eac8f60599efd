package {
  baseProviderName = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name = "byepackage"
    version = "2.0.0"
    value = "R29vZGJ5ZVdvcmxk"
  }
}
