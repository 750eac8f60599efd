# A quoted string may contain a raw newline only inside ${ } or %{ }.
s = "a${
  x
}b%{ if
c }d%{ endif
}"
