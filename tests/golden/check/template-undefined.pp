x = "a ${b} c"
