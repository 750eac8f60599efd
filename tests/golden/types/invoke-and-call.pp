# invoke with and without a schema, and call on a typed resource.
hello = invoke("simple-invoke:index:myInvoke", { value = "hello" })
result = hello.result
withOptions = invoke("simple-invoke:index:myInvoke", { value = "x" }, { version = "10.0.0" })
untyped = invoke("unknownpkg:index:getThing", { a = 1 })

resource component1 "component:index:ComponentCallable" {
  value = "bar"
}

identity = call(component1, "identity", {})
prefixed = call(component1, "prefixed", { prefix = "foo-" }).result
