x = convert(1)
