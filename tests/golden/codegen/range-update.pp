# The same program as range-preview in an update: the ranges are known.
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
