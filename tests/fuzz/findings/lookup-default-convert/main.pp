# lookup() on a map returns the default converted to the map's element type
# when the key is missing (functions.md §2).
config m "map(string)" { default = {} }
output default { value = lookup(m, "k", true) }
