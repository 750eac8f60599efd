x = recover(1, 2)
