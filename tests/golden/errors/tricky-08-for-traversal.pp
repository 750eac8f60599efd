a = [for.x, 1]
