# pulumi:index:Stash (also written pulumi:Stash) is the engine's own
# resource: it records its input and returns it as its output, under the
# pulumi package's default provider.
resource kept "pulumi:index:Stash" {
  input = { list = [1, "two"], flag = true }
}
resource short "pulumi:Stash" {
  input = "hello"
}
output kept {
  value = kept.output
}
output short {
  value = short.output
}
