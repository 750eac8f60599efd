x = try()
