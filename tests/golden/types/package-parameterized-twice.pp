# Two parameterizations of one base provider are two packages, each with
# the schema of its own parameterization.
package {
  baseProviderName    = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "SGVsbG9Xb3JsZA=="
  }
}

package {
  baseProviderName    = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name    = "byepackage"
    version = "2.0.0"
    value   = "R29vZGJ5ZVdvcmxk"
  }
}

resource hello "hipackage:index:HelloWorld" {}

resource helloComponent "hipackage:index:HelloWorldComponent" {}

resource goodbye "byepackage:index:GoodbyeWorld" {}

output greetings {
  value = [hello.parameterValue, helloComponent.parameterValue, goodbye.parameterValue]
}
