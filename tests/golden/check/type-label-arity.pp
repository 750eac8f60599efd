config x "map(string, int)" {
}
