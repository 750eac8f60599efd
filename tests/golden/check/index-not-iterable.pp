k = "a"
s = "abc"
x = s[k]
