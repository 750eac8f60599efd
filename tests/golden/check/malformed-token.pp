resource a "foo" {
}
