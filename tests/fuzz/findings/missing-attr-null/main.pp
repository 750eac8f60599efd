# An attribute of a map that has no such key is an error (types.md §6:
# "indexing an object with a missing key is Unsupported attribute"), which
# try() and can() catch, as they catch the same access written as an index.
m = { for v in ["a"] : v => 1 }
output viaAttribute { value = try(m.b, "fallback") }
output viaIndex { value = try(m["b"], "fallback") }
output caught { value = can(m.b) }
