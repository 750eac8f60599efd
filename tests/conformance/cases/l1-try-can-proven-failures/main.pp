# try and can never reject a program: an argument that the compiler proves
# fails is a warning, and it fails at run time, so that can is false and try
# moves on to its next argument.  One output per kind of failure, then the
# same failures deeper inside an argument.
config "record" "object({a=int, tags=map(string)})" {
  default = { a = 1, tags = { env = "dev" } }
}

config "names" "list(string)" {
  default = ["x", "y"]
}

pair = [1, "two"]

# Traversals the types rule out.
output "fractionalIndex" {
  value = try(pair[1.5], "fractional")
}
output "indexOutOfRange" {
  value = can(pair[2])
}
output "missingAttribute" {
  value = try(record.b, "absent")
}
output "stringTraversed" {
  value = can(names[0].size)
}
output "listKeyNotNumber" {
  value = can(names[{}])
}
output "mapKeyNotString" {
  value = can(record.tags[[1]])
}

# Conversions that cannot succeed.
output "fractionalInt" {
  value = can(range(1.5))
}
output "operand" {
  value = try(pair + 1, "no sum")
}
output "negated" {
  value = can(!record)
}
output "condition" {
  value = try(record ? 1 : 2, 3)
}
output "templateCondition" {
  value = can("%{if names}yes%{endif}")
}
output "converted" {
  value = can(convert(pair, number))
}
output "objectKey" {
  value = can({ (names) = 1 })
}

# Iterations over what is not a collection.
output "forOverNumber" {
  value = can([for v in 5 : v])
}
output "templateForOverNumber" {
  value = try("%{for v in record.a}${v}%{endfor}", "not iterable")
}

# Builtin arguments of a kind the function rejects.
output "elementOfNumber" {
  value = try(element(record.a, 0), "element")
}
output "singleOfObject" {
  value = can(singleOrNone(record))
}
output "lookupInList" {
  value = try(lookup(names, "a", "d"), "lookup")
}

# Deeper inside an argument: only what runs fails.
output "branchNotTaken" {
  value = try(record.a == 1 ? "taken" : record.b, "fallback")
}
output "branchTaken" {
  value = try(record.a == 2 ? "taken" : record.b, "fallback")
}
output "loopBody" {
  value = try([for n in names : n.x], "loop")
}
output "emptyLoop" {
  value = try([for n in [] : pair[7]], "unused")
}
output "nestedTry" {
  value = try(try(pair[3]), "outer")
}
output "operandOfSum" {
  value = try(pair[2] + 1, record.a + 1)
}
output "secretMissing" {
  value = can(secret(record).b)
}
output "laterArgument" {
  value = try(record.a, pair[5])
}
