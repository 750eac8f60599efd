entries = entries({ a = 1 })
