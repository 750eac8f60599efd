# A bare name is a literal key; (name) is the value of name; quoted and
# numeric keys are expressions.
bare = {foo = 1}
paren = {(foo) = 1}
quoted = {"foo" = 1}
number = {0 = 1}
duplicate = {foo = 1, foo = 2}
