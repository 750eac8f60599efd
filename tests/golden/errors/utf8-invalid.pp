a = "café"
bÿ = 1
