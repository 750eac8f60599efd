# Where newlines are tokens, the `]` of a full splat must follow its `*` on
# the same line.
a = b[*
].c
ok = (b[*
].c)
