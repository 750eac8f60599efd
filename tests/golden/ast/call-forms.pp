none = f()
one = f(1)
two = f(1, 2)
trailing-comma = f(1, 2,)
expand = f(xs...)
expand-last = f(1, 2, xs...)
namespaced = ns::fn(1)
deep-namespace = a::b::c()
space-before-paren = f (x)
multi-line = join(
  ",",
  [
    "a",
    "b",
  ],
)
multi-line-expand = f(
  xs...
)
nested = f(g(h(1)), i())
dashed-name = my-func(1)
keyword-name = if(true)
