# Newlines are ignored everywhere inside a for-expression, including between
# the opening brace and `for`.
tuple = [
  for x in xs :
  x
  if x
]
object = {
  for k, v in m :
  k => v
}
object-grouping = {
  for k, v in m
  : v
  => k
  ...
  if true
}
