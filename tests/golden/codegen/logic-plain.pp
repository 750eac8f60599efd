# && and || on plain operands give a plain bool at once, which operations
# on plain values read: the side that decides wins over a failure of the
# other (types.md 10), here !"maybe" and an index past the end.
output notAnd {
  value = !(false && !"maybe")
}
output nested {
  value = !(true && (false && !"abc"))
}
output condition {
  value = true && "false" || false && [for v in [false] : v][6] ? "yes" : "no"
}
output orLeft {
  value = true || !"maybe"
}
