# Every expression form without eventual values.
config s "string" {
}

config n "number" {
}

config i "int" {
}

config j "int" {
}

config b "bool" {
}

config ls "list(string)" {
}

config ms "map(string)" {
}

config o "object({a=string})" {
}

config d {
}

tuple = [1, "a"]
object = { a = 1, "b" = s }
computedKeys = { (s) = "x" }
numberKey = { 0 = "zero" }
keywordKeys = { true = 1, null = 2 }
sum = 1 + 2
intSum = i + j
mixedSum = i + 1
quotient = i / j
negated = -i
stringPlus = s + 1
less = i < j
equal = s == "x"
and = b && true
not = !b
conditional = b ? 1 : 2
conditionalMixed = b ? 1 : "x"
conditionalNull = b ? s : null
index = ls[0]
computedIndex = ls[i]
mapAttr = ms.k
mapIndex = ms["k"]
objectAttr = o.a
dynamicTraversal = d.x.y
tupleIndex = tuple[1]
forList = [for x in ls : "${x}!"]
forMap = { for k, v in ms : k => length(v) }
forGrouped = { for x in ls : x => 1... }
forFiltered = [for k, v in ms : v if k != "a"]
forTuple = [for v in tuple : v]
splat = [o, o][*].a
attrSplat = [o, o].*.a
nested = [[1, 2], [3]][0][1]
paren = (1 + 2) * 3
