# The program of the method-call tests (tests/engine/wire), run against the
# conformance test providers' behaviour and compared with the same program
# for the Node.js SDK (index.js): the argument of each call depends on a
# resource, is secret, or is plain; the first two travel as output values.

resource custom "component-property-deps:index:Custom" {
  value = "hello-"
}

resource callable "component:index:ComponentCallable" {
  value = "bar"
}

output fromDependency {
  value = call(callable, "prefixed", { prefix = custom.value }).result
}

output fromSecret {
  value = call(callable, "prefixed", { prefix = secret("secret-") }).result
}

output fromPlain {
  value = call(callable, "prefixed", { prefix = "plain-" }).result
}
