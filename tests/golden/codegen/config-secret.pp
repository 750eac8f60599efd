# Configs that the run makes secret (--secret) though none is declared secret:
# every use of their values is secret, whatever the operation.
config names "list(string)" {
}
config size "number" {
}
config tags "map(string)" {
  default = {}
}

output joined {
  value = "%{ for i, n in names }${i}=${n};%{ endfor }"
}
output marked {
  value = [for n in names : "${n}!"]
}
output first {
  value = names[0]
}
output big {
  value = size > 70 ? "big" : "small"
}
output notLarge {
  value = !"${size > 100}"
}
output owner {
  value = lookup(tags, "owner", "nobody")
}
output count {
  value = length(names)
}
