# Functions with multi-argument inputs are invoked positionally.
both = invoke("multi-argument-invoke:index:multiArgumentInvoke", "a", "b")
first = invoke("multi-argument-invoke:index:multiArgumentInvoke", "a")
skipped = invoke("multi-argument-invoke:index:multiArgumentInvoke", "a", null, { version = "44.0.0" })
result = both.result
