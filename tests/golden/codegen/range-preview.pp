# A range that is unknown during a preview registers nothing; the resource
# variable is unknown, and so is everything derived from it.
resource a "simple:index:Resource" {
  value = true
}
resource maybe "simple:index:Resource" {
  value = true
  options {
    range = a.id == "a_id"
  }
}
resource many "simple:index:Resource" {
  value = range.value
  options {
    range = a.id == "a_id" ? 2 : 0
  }
}
output maybeId {
  value = [maybe.id]
}
output manyCount {
  value = [length(many)]
}
