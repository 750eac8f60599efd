resource a {
}
