# a is checked after b (it depends on b), but its error is reported first.
a = b + [1]
b = 1 + {}
