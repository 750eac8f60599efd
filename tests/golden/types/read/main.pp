read "res" "read:index:Resource" {
  id     = "existing-id"
  lookup = "existing-key"
}

output "resourceId" {
  value = res.id
}

output "lookup" {
  value = res.lookup
}
