output o {
  value = nope.id
}
