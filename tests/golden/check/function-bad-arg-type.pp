x = join(",", 42)
