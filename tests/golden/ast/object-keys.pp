keys = {
  bare = 1
  true = 2
  false = 3
  null = 4
  (paren) = 5
  (a.b) = 6
  ("computed-${x}") = 7
  "quoted" = 8
  "with space" = 9
  0 = 10
  1.5 = 11
  "template-${x}" = 12
  f(x) = 13
  -1 = 15
  with-dash = 16
  名前 = 17
}
separators = {
  equals = 1
  colon: 2
  "quoted": 3
  (expr): 4
}
colon-compact = {a:1, b:2}
