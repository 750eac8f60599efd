# An undefined name nested inside an object given to a typed input: the
# input's conversion looks through the object for resource references and
# must skip the reference that names nothing (found by fuzz_compile).
resource "res" "simple:index:Resource" {
  value = { a = falsg }
}
