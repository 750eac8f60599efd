x = y
y = x
