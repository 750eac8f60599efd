# The conditional is right-associative and its middle operand is a full
# expression.
right = a ? b : c ? d : e
middle = a ? b ? c : d : e
both = a ? b ? c : d : e ? f : g
paren = (a ? b : c) ? d : e
operands = x > 1 && y ? x + 1 : y * 2
in-tuple = [a ? 1 : 2, b ? 3 : 4]
in-call = f(a ? 1 : 2)
