config x "strin" {
}
