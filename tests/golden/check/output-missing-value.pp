output o {
}
