# Ranged resources: count, list, map and bool, and references to them.
resource counted "simple:index:Resource" {
  value = range.value
  options {
    range = 2
  }
}
resource listed "simple:index:Resource" {
  name = range.value
  index = range.key
  options {
    range = ["x", "y"]
  }
}
resource mapped "simple:index:Resource" {
  value = "${range.key}=${range.value}"
  options {
    range = { b = "2", a = "1" }
  }
}
resource maybe "simple:index:Resource" {
  value = true
  options {
    range = length(listed) > 1
  }
}
resource never "simple:index:Resource" {
  value = false
  options {
    range = false
  }
}
output names {
  value = [listed[0].name, listed[1].name, mapped["a"].value]
}
output maybeId {
  value = maybe.id
}
