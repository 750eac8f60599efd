x = convert([1], bool)
