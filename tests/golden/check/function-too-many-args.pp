x = length([1], 2)
