x = invoke("simple-invoke:index:myInvoke", { value = [1] })
