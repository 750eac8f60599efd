one = a.b
chain = a.b.c.d
keyword-names = a.if.for.in.true.null
dashes = my-res.some-attr
on-call = f(x).y
on-tuple = [a, b].c
on-object = {a = 1}.a
on-string = "s".length
on-paren = (a).b
