s = "abc"
y = s.foo
