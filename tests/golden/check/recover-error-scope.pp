x = error
