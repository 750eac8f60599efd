resource a "simple:index:Nope" {
  value = true
}
