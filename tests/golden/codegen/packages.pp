# Parameterized packages: the program table lists each package block with a
# parameterization (its value decoded, here bytes that need escapes in C),
# and the run registers a package with the engine before the first request
# of it.  A package block without a parameterization is not listed.
package {
  baseProviderName    = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name    = "subpackage"
    version = "2.0.0"
    value   = "SGVsbG9Xb3JsZA=="
  }
}

package {
  baseProviderName        = "parameterized"
  baseProviderVersion     = "1.2.3"
  baseProviderDownloadUrl = "https://example.com/releases"
  parameterization {
    name    = "hipackage"
    version = "2.0.0"
    value   = "AP8iSGk/Py9c"
  }
}

package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
}

# An extension: its schema (extensionParameterization) says it extends its
# base provider, and the table says so.
package {
  baseProviderName    = "extbase"
  baseProviderVersion = "45.0.0"
  parameterization {
    name    = "myext"
    version = "2.0.0"
    value   = "SGVsbG8="
  }
}

resource hello "subpackage:index:HelloWorld" {
}

resource hi "hipackage:index:HelloWorld" {
}

resource greeting "myext:index:Greeting" {
}

output fromInvoke {
  value = invoke("subpackage:index:doHelloWorld", { input = "goodbye" }).output
}
