# The side of && or || that does not decide the result may fail (types.md
# §10: `false && X` is false even when X fails).  pclc does so for plain
# values but fails when the failing side is eventual.
resource r "simple:index:Resource" { value = true }
output and { value = false && [for v in [r.value] : v][3] }
output or { value = [for v in [r.value] : v][3] || true }
output plainAnd { value = false && [for v in [true] : v][3] }
