a = "%{while x}y"
