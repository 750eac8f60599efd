# The component of the source-position case: one resource, declared here.

config text string {}

resource inner "module-format:index:Resource" {
  text = text
}
