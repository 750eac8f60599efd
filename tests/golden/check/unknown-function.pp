x = frobnicate(1)
