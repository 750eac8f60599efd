# A traversal key must still be a string.
things = { list = [1] }
bad = { things.list = 1 }
