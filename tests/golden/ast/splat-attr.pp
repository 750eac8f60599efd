# The attribute-only splat applies only the `.name` / `.N` steps that follow
# it to each element.
bare = a.*
one = a.*.b
chain = a.*.b.c
legacy = a.*.0
mixed = a.*.b.0.c
index-after = a.*.b[0]
attr-after-index = a.*.b[0].c
on-call = f().*.id
