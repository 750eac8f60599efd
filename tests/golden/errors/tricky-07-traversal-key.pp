# A bare multi-step traversal is not a valid object key.
a = {b.c = 1}
