# resourceExists asks the engine whether a resource of a type with an id
# exists; the embedded engine knows the resources of the run, and a state
# given must agree with the resource's outputs.
resource a "simple:index:Resource" {
  value = true
}
output existing {
  value = resourceExists("simple:index:Resource", a.id)
}
output withState {
  value = resourceExists("simple:index:Resource", a.id, { value = true })
}
output wrongState {
  value = resourceExists("simple:index:Resource", a.id, { value = false })
}
output otherType {
  value = resourceExists("simple:index:Other", a.id)
}
output missing {
  value = resourceExists("simple:index:Resource", "no-such-id")
}
output secretId {
  value = resourceExists("simple:index:Resource", secret(a.id))
}
output badState {
  value = try(resourceExists("simple:index:Resource", a.id, "x"), "failed")
}
