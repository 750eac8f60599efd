a = b | c
