output o {
  value = 1
  description = "x"
}
