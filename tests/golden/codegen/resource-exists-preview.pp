# In a preview the id of a resource not created yet is unknown, and so is
# whether it exists: the engine is not asked.
resource a "simple:index:Resource" {
  value = true
}
output unknownId {
  value = resourceExists("simple:index:Resource", a.id)
}
output knownId {
  value = resourceExists("simple:index:Resource", "some-id")
}
