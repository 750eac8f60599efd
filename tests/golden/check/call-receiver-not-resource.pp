x = call(1, "m", {})
