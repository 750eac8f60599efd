# Inside the arguments of try and can, at any depth, a failure the checker
# proves is a warning, with a note at the try or can that catches it.
config "record" "object({a=int})" {
  default = { a = 1 }
}
pair = [1, "two"]

output "index" {
  value = try(pair[1.5], pair[2], "fallback")
}
output "attribute" {
  value = can(record.b)
}
output "conversion" {
  value = try(pair + 1, !record, 0)
}
output "fractional" {
  value = can(range(0.5))
}
output "iteration" {
  value = try([for v in record.a : v], {for k, v in 5 : k => v}, [])
}
output "builtin" {
  value = can(element(record.a, 0))
}
output "objectKey" {
  value = can({ (pair) = 1 })
}
output "nested" {
  value = try([for n in [1] : can(n.x) ? try(n.y, pair[9]) : 0], null)
}
