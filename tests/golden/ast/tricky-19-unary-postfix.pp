# The unary operand is a postfix expression.
neg-attr = -a.b
neg-add = -a + b
not-index = !a[0]
neg-call-attr = -f(x).y
