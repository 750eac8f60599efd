# Indexing a family of resources by a computed key (range.value, a for
# expression's key) follows the path to the instance reached: each link
# depends on its own item, not on every item, though the family is
# eventual (its range is a config).
config count "int" {
  default = 2
}

resource items "simple:index:Resource" {
  options {
    range = count
  }
  value = true
  label = "item-${range.value}"
}

resource links "simple:index:Resource" {
  options {
    range = count
  }
  value = true
  label = items[range.value].label
}

output labels {
  value = [for i, x in links : items[i].label]
}
