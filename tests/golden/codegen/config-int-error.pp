# An int-typed config value whose text is not an integer is an error that
# names the key and the value.
config count int {}
output count {
  value = count
}
