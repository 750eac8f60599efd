# A string may not hold a line break.
a = "abc
b = 1
