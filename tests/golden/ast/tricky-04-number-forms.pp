# 1.0 is an integral number literal; numbers have no sign, no leading or
# trailing dot.
one-point-zero = 1.0
exponent = 1e3
negative = -1.0
leading-zeros = 00.50
