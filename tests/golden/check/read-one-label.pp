read a {
}
