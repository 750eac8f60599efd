# An object key written as a traversal is an expression, as HCL's parser
# reads it: the key is the value it refers to (syntax.md §5.4, case 4).
names = { first = "a", second = "b" }
list = ["x"]
tags = {
  names.first     = 1
  names["second"] = 2
  list[0]         = 3
  list.0          = 4
  "names.first"   = 5
  bare            = 6
}
