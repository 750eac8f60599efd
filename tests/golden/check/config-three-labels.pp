config a "string" "extra" {
}
