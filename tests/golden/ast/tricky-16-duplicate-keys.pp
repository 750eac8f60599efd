# Duplicate object keys are not an error: the last one wins.
o = {
  a = 1
  a = 2
}
