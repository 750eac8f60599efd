# A multi-line expression at attribute level needs parentheses or brackets.
sum = (
  1 +
  2
)
cond = (
  a
  ? b
  : c
)
call = max(
  1,
  2
)
