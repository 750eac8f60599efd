b = 2

output total {
  value = a
}
