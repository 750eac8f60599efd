# Where newlines are tokens, the `*` of a full splat must be on the line of
# its `[` (inside parentheses it may not be).
a = b[
  *].c
o = {
  k = b[
*]
}
ok = (b[
  *].c)
