# A block comment spanning lines does not end an attribute; a line comment
# does.
a = 1 + /* spanning
several lines */ 2
b = 1 # ends here
c = /*
*/ 3
