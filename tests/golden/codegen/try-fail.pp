# A failure proven inside try or can is written as a call that fails with
# the checker's message at run time.
pair = [1, "two"]

output "moved" {
  value = try(pair[5], "fallback")
}
output "inLoop" {
  value = can([for v in pair : v.x])
}
