a = [for in xs : 1]
