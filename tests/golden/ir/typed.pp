# Typed resources (schemas): expressions over outputs run as applies; an
# invoke, a read and recover; numbers converted to the schema's types.
resource p "primitive:index:Resource" {
  boolean = true
  float = 3.5
  integer = 42
  string = "s"
  numberArray = [1, 2]
  booleanMap = { t = true }
}
resource q "primitive:index:Resource" {
  boolean = !p.boolean
  float = p.float * 2
  integer = p.integer + 1
  string = "${p.string}-${p.integer}-${p.string}"
  numberArray = [for n in p.numberArray : n * 10]
  booleanMap = { for k, v in p.booleanMap : k => !v }
}
read r "read:index:Resource" {
  id = "existing-id"
  lookup = "key-${q.string}"
}
output fromInvoke {
  value = invoke("simple-invoke:index:myInvoke", { value = q.string }).result
}
output summary {
  value = q.boolean ? "q is true" : "q is ${q.string}"
}
output readLookup {
  value = r.lookup
}
output recovered {
  value = recover(p.numberArray[7], "recovered: ${error}")
}
output count {
  value = length(q.numberArray)
}
output idText {
  value = "id=${p.id}"
}
output mixed {
  value = { known = p.string, unknown = p.id, list = [p.id, "k"] }
}
