config {
}
