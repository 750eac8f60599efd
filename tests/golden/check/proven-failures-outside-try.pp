# The failures that try and can catch are errors everywhere else, also in a
# branch of a conditional or the body of a loop.
config "record" "object({a=int})" {
  default = { a = 1 }
}
pair = [1, "two"]

output "index" {
  value = pair[1.5]
}
output "outOfRange" {
  value = pair[2]
}
output "attribute" {
  value = record.b
}
output "conversion" {
  value = pair + 1
}
output "fractional" {
  value = range(0.5)
}
output "iteration" {
  value = [for v in record.a : v]
}
output "builtin" {
  value = element(record.a, 0)
}
output "objectKey" {
  value = { (pair) = 1 }
}
output "branch" {
  value = record.a == 1 ? "taken" : record.b
}
output "loop" {
  value = [for n in [] : pair[7]]
}
