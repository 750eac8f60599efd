hook resource "h" {
  command = 42
}
