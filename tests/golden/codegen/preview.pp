# In a preview, expressions over new resources' outputs are unknown; known
# parts of objects stay known.
resource a "simple:index:Resource" {
  value = "v"
}
resource b "simple:index:Resource" {
  text = "id=${a.id}"
  obj = { known = "k", unknown = a.id }
}
output text {
  value = b.text
}
output urn {
  value = a.urn
}
