hook resource {
  command = ["true"]
}
