# The chosen branch of a conditional is converted to the type both branches
# unify to (types.md §10), here union(int, output(const(number 0.5))); the
# value 0.5 of the second branch has a member type of that union and stays
# 0.5, as it does when the branch is not eventual.  pclc converts it to int
# and fails.
config a "int" { default = 1 }
output eventual { value = false ? a : secret(0.5) }
output plain { value = false ? a : 0.5 }
