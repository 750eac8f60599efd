# A BOM at the start of the file is silently ignored.
resource r "pkg:index:Thing" {
  a = 1
}
