# The operand of a unary operator is a postfix expression.
attr = -a.b
index = -x.y[0]
call = -f(x)
not-eq = !a == b
neg-add = -a + b
literal = -46+5
double-neg = --x
double-not = !!x
neg-not = -!x
splat = !a[*].b
paren = -(a + b)
