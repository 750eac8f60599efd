x = convert(1, lst(string))
