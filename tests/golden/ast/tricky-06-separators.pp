# Tuple elements need commas even across lines; object items may be
# separated by newlines.
tuple = [
  1,
  2
]
object = {
  a = 1
  b = 2
}
