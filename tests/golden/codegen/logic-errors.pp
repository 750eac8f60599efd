# && and || ignore an error on the side that does not decide the result
# (types.md 10): the missing key fails, the known side decides.
config m "map(string)" {
  default = { a = "x" }
}
output andFalse {
  value = false && m["missing"] == "x"
}
output orTrue {
  value = m["missing"] == "x" || true
}
output bothKnown {
  value = m["a"] == "x" && true
}
