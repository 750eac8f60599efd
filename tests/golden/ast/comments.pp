# Hash comment.
// Slash comment.
/* Block comment on one line. */
/*
 * Block comment on
 * several lines.
 */
a = 1 # trailing hash comment
b = 2 // trailing slash comment
c = 3 /* trailing block comment */
d = /* before the value */ 4
e = 1 + /* a block comment spanning
lines does not end the attribute */ 2
f = [1, # comments inside brackets
  2, // are fine
  /* everywhere */ 3]
g = {
  # a comment line inside an object
  x = 1 /* block */
  // another
  y = 2
}
block /* between header and brace */ {
  h = "# not a comment" # a comment
}
/* A block comment with * and / and /* inside */
i = 5 /**/
j = 6 /***/
k = "//" // end
