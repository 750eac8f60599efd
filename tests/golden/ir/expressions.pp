# Operators, templates, collections, for expressions, splats and built-ins.
config items "list(string)" {
  default = ["a", "b", "c"]
}
nums = [3, 1, 2]
obj = { name = "x", tags = { env = "dev", team = "core" } }
output arith {
  value = [1 + 2, 7 - 10, 6 * 7, 7 / 2, -7 % 3, -(4), 2 < 3, 3 <= 2, 4 > 1, 4 >= 5, 1 == 1.0, "a" != "b", true && false, true || false, !true]
}
output tmpl {
  value = "name=${obj.name} env=${obj.tags["env"]} %{if length(items) > 2}many%{else}few%{endif} %{for i, v in items}${i}:${v};%{endfor}"
}
output forList {
  value = [for i, v in items : "${i}-${upper}" if v != "b"]
}
upper = "U"
output forObject {
  value = { for k, v in obj.tags : v => k }
}
output grouped {
  value = { for v in ["x", "y", "x"] : v => v... }
}
output splat {
  value = [{ n = 1 }, { n = 2 }][*].n
}
output builtins {
  value = {
    json    = toJSON({ b = [1, 2.5, true, null], a = "q<>" })
    length  = length(items)
    join    = join("-", items)
    split   = split(",", "a,,b")
    element = element(items, 4)
    lookup  = lookup(obj.tags, "team", "none")
    range   = range(2, 5)
    min     = min(nums...)
    max     = max(3, 9, 4)
    sha1    = sha1("abc")
    b64     = toBase64("hello")
    unb64   = fromBase64("aGVsbG8=")
    entries = entries({ z = 1, a = 2 })
    single  = singleOrNone([42])
    cond    = length(nums) > 2 ? "big" : "small"
    conv    = convert("42", int)
  }
}
