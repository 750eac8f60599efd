x = join(",")
