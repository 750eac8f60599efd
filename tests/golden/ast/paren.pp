simple = (a)
nested = ((a))
multi-line = (
  a
  +
  b
)
in-op = (a + b) / (c - d)
traversal = (a).b[0]
call = (f(x))[1]
