x = invoke("multi-argument-invoke:index:multiArgumentInvoke", { first = "a" })
