# The program of the parameterized-package fault cases (tests/engine/faults):
# a package block with a parameterization, a resource, an explicit provider
# and an invoke of that package, and a resource of another package.

package {
  baseProviderName        = "parameterized"
  baseProviderVersion     = "1.2.3"
  baseProviderDownloadUrl = "https://example.com/parameterized"
  parameterization {
    name    = "subpackage"
    version = "2.0.0"
    value   = "SGVsbG9Xb3JsZA=="
  }
}

resource hello "subpackage:index:HelloWorld" {
}

resource prov "pulumi:providers:subpackage" {
  text = "again"
}

resource other "aws:s3/bucket:Bucket" {
}

output value {
  value = invoke("subpackage:index:doHelloWorld", { input = "goodbye" }).output
}
