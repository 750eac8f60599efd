package {
}
