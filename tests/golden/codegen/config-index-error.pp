# A number from config that is not a whole number cannot index a list: the
# error names the value and the index's location (DECISIONS.md D11).
config position number {}
list = ["a", "b", "c"]
output picked {
  value = list[position]
}
