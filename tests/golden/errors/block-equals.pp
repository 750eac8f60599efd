resource r = {
  a = 1
}
