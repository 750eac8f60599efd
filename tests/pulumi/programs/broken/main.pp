// A program pclc rejects: a name that is not defined.
resource "r" "simple:index:Resource" {
  value = missing
}
