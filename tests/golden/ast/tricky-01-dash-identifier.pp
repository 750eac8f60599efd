# `a-b` is one identifier; subtraction needs spaces.
a-b = 1
one-identifier = a-b
subtraction = a - b
x-1 = x-1
minus-one = x - 1
numbers = 5-3
mixed = a-b - c-d
