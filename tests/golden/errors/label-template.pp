resource "name-${x}" "pkg:index:Thing" {
}
