# The program of the byte-string tests (tests/engine/wire), run against the
# conformance test providers' behaviour: bytesource makes a string that is
# not UTF-8 (NUL, "hello ", 80 fe ff, " world", f0 28), which the program
# passes on in every kind of value it sends: an input (which bytesink
# checks byte for byte), an option, a read's properties, an invoke's and a
# call's arguments (the call's as an output value, since it depends on
# source) and stack outputs, one of them secret.

resource source "bytesource:index:Resource" {
  base64 = "AGhlbGxvIID+/yB3b3JsZPAo"
}

resource sink "bytesink:index:Resource" {
  bytes        = source.bytes
  expectBase64 = source.base64
  options {
    replacementTrigger = source.bytes
  }
}

resource callable "component:index:ComponentCallable" {
  value = "bar"
}

read readBack "read:index:Resource" {
  id     = "read-id"
  lookup = source.bytes
}

output bytes {
  value = source.bytes
}

output secretBytes {
  value = secret(source.bytes)
}

output fromInvoke {
  value = invoke("component:index:identity", { input = source.bytes }).result
}

output fromCall {
  value = call(callable, "prefixed", { prefix = source.bytes }).result
}

output readLookup {
  value = readBack.lookup
}
