# Conversions to the schema's input types and to declared output types are
# explicit in the IR and done at run time.
resource p "primitive:index:Resource" {
  boolean = "true"
  float = "2.5"
  integer = "7"
  string = 42
  numberArray = ["1", 2]
  booleanMap = { t = "false" }
}
output asString "string" {
  value = p.integer
}
output asInt "int" {
  value = "12"
}
output explicit {
  value = [convert("3", int), convert(4, string), convert("true", bool), convert("1.5", number)]
}
