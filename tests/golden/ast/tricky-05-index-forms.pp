# x.0 is an index (legacy syntax); x[1] a literal step; x[-1] an index
# expression.
legacy = x.0
literal = x[1]
negative = x[-1]
both = x.0[1]
