config x "list(" {
}
