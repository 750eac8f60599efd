package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
}

component "deeper" "./grandchild" {}

resource "x" "other:index:Thing" {}
