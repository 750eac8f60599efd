# The program of the per-value output tests (tests/engine/wire), run against
# the conformance test providers' behaviour: an invoke's argument that
# depends on a resource and is secret, a plain one, and a method call's, for
# an engine that takes output values inside invoke and call arguments.

resource custom "component-property-deps:index:Custom" {
  value = "hello-"
}

resource callable "component:index:ComponentCallable" {
  value = "bar"
}

output fromInvoke {
  value = invoke("simple-invoke:index:myInvoke", { value = secret(custom.value) }).result
}

output fromPlainInvoke {
  value = invoke("simple-invoke:index:myInvoke", { value = "plain" }).result
}

output fromCall {
  value = call(callable, "prefixed", { prefix = custom.value }).result
}
