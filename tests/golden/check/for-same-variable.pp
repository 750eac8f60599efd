x = [for v, v in [1] : v]
