// A package block gives the version of a package and stands for its
// tokens; a parameterized block stands for its own tokens, not for those of
// its base provider, which is a package of its own.
package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
  baseProviderDownloadUrl = "https://example.com/simple"
}

package {
  baseProviderName    = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name    = "subpackage"
    version = "2.0.0"
    value   = "SGVsbG9Xb3JsZA=="
  }
}

resource "a" "simple:index:Resource" {
  value = true
}

resource "b" "subpackage:index:HelloWorld" {}

resource "c" "parameterized:index:Other" {}
