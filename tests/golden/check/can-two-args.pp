x = can(1, 2)
