# A number-typed config value is the nearest double of its text, and prints
# as that double does; an int keeps every digit (DECISIONS.md D3).  A value
# read from config takes part in conversions and indexes like any other,
# and their errors name it (D11).
config big number {}
config exact int {}
config numbers "list(number)" {}
config position number {}
list = ["a", "b", "c"]
output big {
  value = big
}
output exact {
  value = exact
}
output numbers {
  value = numbers
}
output sum {
  value = big + 1
}
output picked {
  value = list[position]
}
