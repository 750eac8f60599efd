# Expressions that observe eventual values become applies; constructors stay
# constructors; equal traversals share one argument; nested applies.
config secretName "string" {
  secret = true
}
resource a "simple:index:Resource" {
  value = true
}
resource b "simple:index:Resource" {
  value = a.value ? false : true
}
names = { "true" = "yes", "false" = "no" }
twice = "${a.value}-${a.value}-${secretName}"
obj = { direct = a.value, wrapped = "x${a.value}", list = [a.id, "plain"] }
nested = names["${a.value}"]
count = length([a.value, b.value])
cond = a.value ? secretName : "none"
forOver = [for x in [a.value, b.value] : !x]
# Nested applies: an apply's result feeds an outer apply.
nestedApply = "<${length([a.value, b.value]) + 1}>"
indexByOutput = names[a.value ? "true" : "false"]
