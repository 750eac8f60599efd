a = [for, a]
