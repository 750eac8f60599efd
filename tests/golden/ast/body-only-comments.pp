# only comments
// and blank lines

/* and a block comment */
