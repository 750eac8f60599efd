# Operands are converted to the operator's parameter type (types.md §10):
# the strings "true" and "false" convert to bool for !, && and || and as the
# condition of a conditional, as "1" converts to a number for +.
output not { value = !"false" }
output and { value = "true" && true }
output condition { value = "true" ? 1 : 2 }
output plus { value = "1" + 2 }
