a = b[0
c = 1
