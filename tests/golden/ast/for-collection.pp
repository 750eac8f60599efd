# The collection may be a conditional: it consumes its own `:`.
conditional = [for x in c ? a : b : x]
call = [for x in range(10) : x]
tuple = [for x in [1, 2, 3] : x]
object = {for k, v in {a = 1} : k => v}
parenthesized = [for x in (a ? b : c) : x]
