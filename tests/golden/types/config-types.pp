# Config type labels (types.md §13) and config rules (program.md §6).
config aString "string" {
}

config aNumber "number" {
}

config anInt "int" {
}

config aBool "bool" {
}

config anAny "any" {
}

config aList "list(string)" {
}

config aSet "set(int)" {
}

config aMap "map(any)" {
}

config anObject "object({prop=list(bool), other=int})" {
}

config listOfObjects "list(object({ zone = string }))" {
}

config aTuple "tuple([string, int])" {
}

config optionals "list(optional(string))" {
  default = [null, "hello", null]
}

config optionalObject "object({prop=string, other=int})" {
  default = null
}

config quotedKey "object({\"a b\" = string})" {
}

config secretNumber "number" {
  secret = true
}
