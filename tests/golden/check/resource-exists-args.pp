// resourceExists(type string, id output(string), state optional(dynamic)):
// arguments that do not convert to the parameters are errors at the
// argument, and its arguments cannot be expanded from a list.
resource c "call:index:Custom" {
  value = "v"
}

typeList   = resourceExists(["call:index:Custom"], c.id)
idObject   = resourceExists("call:index:Custom", { id = c.id })
idList     = resourceExists("call:index:Custom", [c.id])
expanded   = resourceExists(["call:index:Custom", "id"]...)
fine       = resourceExists("call:index:Custom", c.id, { value = "v" })
numberId   = resourceExists("call:index:Custom", 42)
