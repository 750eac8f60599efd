hook resource "h" {
  onDryRun = true
}
