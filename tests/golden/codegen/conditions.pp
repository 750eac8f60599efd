# The operand of !, && and || and a condition may be a bool or one of the
# strings "true", "1", "false", "0", converted at run time (types.md 10);
# a secret operand makes the result secret.
config yes string {
  default = "true"
}
config no string {
  default = "0"
}
config hidden string {
  default = "1"
  secret  = true
}
output not {
  value = [!yes, !no]
}
output and {
  value = [yes && "1", no && true, yes && no]
}
output or {
  value = [no || "false", no || yes]
}
output chosen {
  value = yes ? "then" : "else"
}
output filtered {
  value = [for x in ["a", "b"] : x if no || x == "b"]
}
output secretNot {
  value = !hidden
}
# The branch chosen is converted to the type both branches unify to.
output unified {
  value = [yes ? 1 : "a", no ? 1 : "a", yes ? 2.5 : true]
}
# The same conversions apply to eventual operands.
resource r "simple:index:Resource" {
  value = true
}
output eventual {
  value = ["${r.value}" && yes, !"${r.value}", "${r.value}" ? "then" : "else"]
}
