output "v" {
  value = invoke("fns:index:f", {})
}
