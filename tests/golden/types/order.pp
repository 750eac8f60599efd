# Declaration order does not matter; the evaluation order puts
# dependencies first and otherwise keeps source order.
output result {
  value = c
}

c = b + 1
a = 1
b = a + 1
unrelated = "u"
usesOutput = result
