# An argument of try or can that the checker proves fails lowers to a FAIL
# with the checker's message, located at the failing part; the rest of the
# argument around it lowers as usual.
config "record" "object({a=int})" {
  default = { a = 1 }
}
pair = [1, "two"]

output "fallback" {
  value = try(pair[5], record.b, record.a)
}
output "inLoop" {
  value = can([for v in pair : record.a == 1 ? v : pair + 1])
}
