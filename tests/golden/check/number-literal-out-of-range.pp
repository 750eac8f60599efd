output "tiny" {
  value = 1e-400
}

output "huge" {
  value = -1e999999
}

output "smallest" {
  value = 5e-324
}
