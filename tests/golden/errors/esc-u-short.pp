a = "caf\u0e9"
