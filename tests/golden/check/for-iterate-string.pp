x = [for c in "abc" : c]
