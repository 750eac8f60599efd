# Comparisons are left-associative and chainable syntactically.
lt = a < b < c
mixed = a <= b > c >= d
eq = a == b == c
