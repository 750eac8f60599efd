a = b + 1
