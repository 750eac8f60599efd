or = a || b
and = a && b
eq = a == b
ne = a != b
lt = a < b
le = a <= b
gt = a > b
ge = a >= b
add = a + b
sub = a - b
mul = a * b
div = a / b
mod = a % b
neg = -a
not = !a
tight = 1+2*3
