# Resource options are passed through to the runtime.
resource parent "simple:index:Resource" {
  value = true
}
resource child "simple:index:Resource" {
  value = parent.value
  tags = { env = "dev" }
  options {
    parent = parent
    dependsOn = [parent]
    protect = true
    retainOnDelete = true
    deleteBeforeReplace = true
    ignoreChanges = [tags]
    replaceOnChanges = [value]
    additionalSecretOutputs = [value]
    customTimeouts = { create = "1m", update = "2m", delete = "3m" }
    import = "existing-id"
    version = "2.0.0"
    deletedWith = parent
  }
}
output childUrn {
  value = child.urn
}
