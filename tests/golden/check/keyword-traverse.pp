x = null.a
y = true[0]
