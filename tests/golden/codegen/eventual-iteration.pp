# Iteration and construction over eventual values: conditions, keys and
# template bodies that wait, object keys that wait, splats over futures.
resource a "simple:index:Resource" {
  value = "va"
  items = ["x", "y", "z"]
}
output filtered {
  value = [for x in [a.id, "k", a.value] : x if x != "k"]
}
output keyed {
  value = { for i, x in a.items : "${a.value}-${i}" => x }
}
output grouped {
  value = { for x in [a.value, "q", a.value] : x => x... }
}
output joined {
  value = "%{for x in a.items}[${x}-${a.id}]%{endfor}"
}
output dynamicKey {
  value = { "${a.value}" = 1, plain = a.id }
}
output splatted {
  value = [{ n = a.id }, { n = a.value }][*].n
}
output splatOverFuture {
  value = a.items[*]
}
output tried {
  value = try(a.items[7], a.items[1])
}
output condChain {
  value = a.value == "va" ? (a.id == "a_id" ? "both" : "first") : "none"
}
