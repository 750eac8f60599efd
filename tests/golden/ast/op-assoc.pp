# Every binary level is left-associative.
or = a || b || c
and = a && b && c
eq = a == b != c
cmp = a < b <= c
add = a - b + c - d
mul = a / b * c % d
