# The pulumi block's requiredVersionRange is checked against the CLI version
# (3.200.0) before anything is registered; the range may be any expression,
# here a config value with a default, and alternatives joined by "||".
config range "string" {
  default = ">=3.0.0 <3.100.0 || >=3.200.0 <4.0.0"
}
resource a "simple:index:Resource" {
  value = true
}
pulumi {
  requiredVersionRange = range
}
output checked {
  value = a.value
}
