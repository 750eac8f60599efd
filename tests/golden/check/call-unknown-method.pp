resource c "component:index:ComponentCallable" {
  value = "v"
}

x = call(c, "nope", {})
