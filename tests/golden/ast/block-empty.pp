empty {}
empty "label" {}
spaced {   }
multi {
}
blank-lines {

}
commented { # a comment on the opening line
  # a comment inside
}
