resource a "a:b:c:d" {
}
