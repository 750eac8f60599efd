# true/false/null are literals in expressions but fine as attribute names,
# object keys and traversal names.
true = 1
false = 2
null = 3
value = true
keys = { true = 1, false = 2, null = 3 }
attrs = a.true.false.null
block true false null {
  true = null
}
