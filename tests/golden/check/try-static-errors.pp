# try and can catch failures of values, not mistakes in the program: an
# undefined name, an unknown function or a wrong number of arguments inside
# them is still an error.
output "undefined" {
  value = try(missing, 1)
}
output "unknownFunction" {
  value = can(frobnicate(1))
}
output "arity" {
  value = try(element([1]), 2)
}
