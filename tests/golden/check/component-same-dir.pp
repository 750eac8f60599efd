component c "." {
}
