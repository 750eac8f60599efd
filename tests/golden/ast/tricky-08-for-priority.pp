# `[for` and `{for` always start a for-expression; the name `for` needs
# parentheses or quotes elsewhere.
tuple-for = [for x in xs : x]
object-for = {for x in xs : x => x}
paren-first = [(for), a]
second = [a, for]
quoted-key = {"for" = 1}
paren-key = {(for) = 1}
key-second = {
  a = 1
  for = 2
}
