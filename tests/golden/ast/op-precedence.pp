# From lowest to highest: ?:, ||, &&, == !=, < <= > >=, + -, * / %, unary.
or-and = a || b && c
and-or = a && b || c
and-eq = a && b == c
eq-lt = a == b < c
lt-add = a < b + c
add-mul = a + b * c
mul-add = a * b + c
mod-sub = a % b - c
div-unary = a / -b
all = a || b && c == d < e + f * -g
all-reversed = -a * b + c < d == e && f || g
cond-or = a || b ? c : d
cond-in-parens = (a ? b : c) + d
paren-override = (a + b) * c
ne-ge = a != b >= c
le-gt = a <= b > c
