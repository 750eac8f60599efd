resource a "untyped:index:Thing" {
}

x = call(a, "f", {})
