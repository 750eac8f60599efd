resource a "simple:index:Resource" {
}
