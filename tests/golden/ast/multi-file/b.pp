# Files are read in lexicographic order of their name: a.pp, then b.pp.
resource second "pkg:index:Thing" {
  input = first.output
}
