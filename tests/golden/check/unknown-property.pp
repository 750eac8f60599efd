o = {
  a = 1
}
y = o.b
