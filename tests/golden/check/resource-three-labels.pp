resource a "simple:index:Resource" "extra" {
  value = true
}
