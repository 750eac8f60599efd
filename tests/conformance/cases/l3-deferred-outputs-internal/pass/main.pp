config "input" "string" {}

output "out" {
  value = input
}

output "constant" {
  value = "c"
}
