# An error whose operand is secret says [secret] where the value would be,
# on stderr and in the snapshot's error: a secret config value divided by
# zero.
config amount "int" {
  secret = true
}
output ratio {
  value = amount / 0
}
