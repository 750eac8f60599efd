o = {
  Abc = 1
}
y = o.abc
