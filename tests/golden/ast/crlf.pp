# CRLF line endings everywhere.
a = 1
b = [
  1,
  2,
]
block "x" {
  c = { k = "v"
    l = 2 }
}
// comment
d = "s" # comment
