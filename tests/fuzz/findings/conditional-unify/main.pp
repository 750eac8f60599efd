# The result of a conditional is converted to the type its two branches
# unify to (types.md §10: `c ? 1 : "a"` yields "1" when c is true).
output number { value = true ? 1 : "a" }
output bool { value = [true ? false : "x"] }
