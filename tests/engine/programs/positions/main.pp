# The program of the source-position fault case (tests/engine/faults): a
# registration, a read, an invoke and a method call of a package whose
# schema has methods (the conformance providers' module-format), and a
# local component whose resource is declared in another file.

resource res "module-format:index:Resource" {
  text = "hello"
}

read existing "module-format:index:Resource" {
  id = "existing-id"
}

greeting = invoke("module-format:index:concatWorld", {
  value = "hello"
})

component part "./part" {
  text = res.text
}

output called {
  value = call(res, "call", { input = "x" }).output
}

output greeting {
  value = greeting.result
}
