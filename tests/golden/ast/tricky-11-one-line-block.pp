# A one-line block holds at most one attribute.
options { range = 3 }
options { a = { b = 1, c = 2 } }
