# Blocks with zero to three labels, quoted and bare, mixed.
zero {
  a = 1
}
one "quoted" {
  a = 1
}
one bare {
  a = 1
}
two "first" second {
  a = 1
}
three a "b" c {
  a = 1
}
three "x" "y" "z" {
}
