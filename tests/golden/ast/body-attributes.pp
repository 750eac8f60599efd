# Top-level attributes separated by blank lines and comments.
a = 1


b = "two"
c = a

d = null
