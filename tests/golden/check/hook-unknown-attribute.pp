hook resource "h" {
  command = ["true"]
  retries = 3
}
