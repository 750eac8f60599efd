component c "./comp" {
}
