a = [for x xs : x]
