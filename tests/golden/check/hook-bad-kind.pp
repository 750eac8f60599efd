hook deploy "h" {
  command = ["true"]
}
