a = 1 +
b = "ok"
c = [1 2]
resource r "t" {
  d = f(,)
  e = 1
  e = 2
}
f = "${"
