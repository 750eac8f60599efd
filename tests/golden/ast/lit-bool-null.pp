t = true
f = false
n = null
tuple = [true, false, null]
