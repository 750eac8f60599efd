# A grouping for expression collects the values of equal keys in element
# order; keys interleave, and the map is ordered by key.
output grouped {
  value = { for i, s in ["b", "a", "b", "c", "a", "b"] : s => i... }
}
output filtered {
  value = { for i, s in ["b", "a", "b", "c"] : s => i... if i != 2 }
}
