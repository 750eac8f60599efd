x = invoke("nocolon", {})
