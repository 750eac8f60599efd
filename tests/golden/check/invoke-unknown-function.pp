x = invoke("simple-invoke:index:nope", {})
