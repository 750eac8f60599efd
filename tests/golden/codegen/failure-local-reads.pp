# A local that fails at once (the range limit) is the run's error, however
# it is read later: as a collection, by a built-in, as JSON, by an index,
# in a template.  Each reader fails too, but with its own message, which is
# not the one shown: the first failure's message and location are.
l = range(100000000)
output count {
  value = length(l)
}
output each {
  value = [for x in l : x]
}
output text {
  value = toJSON(l)
}
output first {
  value = "${l[0]}"
}
