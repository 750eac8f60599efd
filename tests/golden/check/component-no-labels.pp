component {
}
