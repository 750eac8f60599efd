# A resource input is converted to its schema type and a typed output to its
# declared type whatever the static type of the value (program.md §3.7,
# types.md §4.5); pclc converts only values it knows to be primitives.
resource p "primitive:index:Resource" {
  boolean     = true
  float       = 1.5
  integer     = 1
  string      = try(notImplemented("x"), false)
  numberArray = []
  booleanMap  = {}
}
output input { value = p.string }
output typed "string" { value = try(notImplemented("x"), 5) }
