# Literal keys and computed keys.
number = a[0]
string = a["key"]
bool = a[true]
null = a[null]
variable = a[i]
negative = a[-1]
computed = a[i + 1]
template = a["k-${i}"]
chain = a.b[0]["c"].d[1]
double = a[0][1]
multi-line = a[
  0
]
nested = a[b[c]]
call = f()[0]
