// Every token of a package's resources and functions names the package;
// options written as string literals travel with it; the built-in package
// `pulumi` is not listed.
resource "a" "simple:index:Resource" {
  value = true
}

resource "b" "simple:index:Resource" {
  value = true
  options {
    version = "26.0.0"
  }
}

resource "p" "pulumi:providers:config" {
  name = "x"
  options {
    pluginDownloadURL = "https://example.com/plugins"
  }
}

read "r" "read:index:Thing" {
  id = "1"
}

# A sourceless component is the program's own: its token names no package.
component "local" {
  token = "my:custom:Component"
}

resource "stash" "pulumi:index:Stash" {
  input = "x"
}

output "fn" {
  value = [for x in [1] : invoke("fns:index:f", {}, { version = "1.2.3", pluginDownloadUrl = "https://example.com" })]
}

output "nested" {
  value = "${invoke("other:mod:g", { x = invoke("third::h", {}) }).y}"
}

output "ref" {
  value = invoke("pulumi:pulumi:getResource", {})
}
