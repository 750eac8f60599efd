empty = {}
empty-spaced = { }
empty-lines = {

}
commas = { a = 1, b = 2, c = 3 }
trailing-comma = { a = 1, b = 2, }
newlines = {
  a = 1
  b = 2
}
mixed = {
  a = 1,
  b = 2
  c = 3, d = 4
  e = 5,
}
blank-lines = {

  a = 1


  b = 2

}
one-line = { a = 1 }
comments = {
  a = 1 # a line comment separates like a newline
  b = 2 // so does this one
  c = /* a block comment is whitespace */ 3
}
