// Component programs are read too; a package block in a component covers
// the tokens of the whole compilation.
component "one" "./child" {}

resource "a" "simple:index:Resource" {
  value = true
}
