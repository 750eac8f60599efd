// An invalid package block is reported as binding reports it.
package {
  baseProviderName    = "simple"
  baseProviderVersion = "two"
}

resource "a" "simple:index:Resource" {}
