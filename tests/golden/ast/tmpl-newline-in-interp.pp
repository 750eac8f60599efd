# Newlines are allowed inside ${ } and %{ } of a quoted template.
interp = "a ${
  x
} b"
multi-line-expression = "${a +
  b}"
directive = "%{
  if c
}yes%{
  endif
}"
call = "${join(",", [
  "x",
  "y",
])}"
