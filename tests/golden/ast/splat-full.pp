# The full splat applies every following traversal step to each element.
bare = a[*]
one = a[*].b
index = a[*].b[0]
legacy = a[*].0
chain = a[*].b.c["d"]
nested = a[*].b[*].c
after-attr-splat = a.*.b[*].c
computed-index = a[*].b[i]
spaced = a[ * ].b
multi-line = (a[
  *
].b)
