config x "lst(string)" {
}
