tok = "simple-invoke:index:myInvoke"
x = invoke(tok, {})
