component c "./does-not-exist" {
}
