# More resource options: explicit providers, aliases, replaceWith,
# replacementTrigger, hideDiffs, pluginDownloadURL.
resource prov "pulumi:providers:simple" {
}
resource a "simple:index:Resource" {
  value = true
  options {
    provider = prov
  }
}
resource b "simple:index:Resource" {
  value = false
  options {
    provider = prov
    aliases = ["urn:pulumi:dev::options-more::simple:index:Resource::old"]
    replaceWith = [a]
    replacementTrigger = a.value
    hideDiffs = [value]
    pluginDownloadURL = "https://example.com/plugins"
  }
}
