# Spaces are not tokens: `f (x)` is a call.
call = f (x)
namespaced = ns :: fn (1)
