# try, can and recover evaluate their alternatives lazily.
config raw "any" {
  default = { a = 1 }
}
output tried {
  value = try(raw.b.c, element([], 0), "fallback")
}
output triedFirst {
  value = try(raw.a, "unused")
}
output canA {
  value = can(raw.a)
}
output canB {
  value = can(element([], 0))
}
