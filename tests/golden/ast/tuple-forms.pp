empty = []
empty-spaced = [ ]
one = [1]
one-trailing = [1,]
three = [1, 2, 3]
trailing = [1, 2, 3,]
multi-line = [
  "a",
  "b",
  "c",
]
multi-line-no-trailing = [
  "a",
  "b"
]
commas-at-start = [
  1
  , 2
  , 3
]
blank-lines = [

  1,

  2,

]
nested = [[1, 2], [], [[3]]]
mixed = [1, "two", true, null, {a = 1}, [x]]
