# Output lifting through expressions (types.md §9–§11).
config secretText "string" {
  secret = true
}

config ls "list(string)" {
}

config flag "bool" {
}

template = "v=${secretText}"
compare = secretText == "x"
and = flag && secretText == "y"
cond = secretText == "" ? "empty" : secretText
list = [secretText, "plain"]
object = { a = secretText }
computed = { (secretText) = "x" }
lengthOf = length(secretText)
parts = split(",", secretText)
forOver = [for x in split(",", secretText) : x]
forFilter = [for x in ls : x if secretText == x]
secretList = secret(ls)
revealed = unsecret(secretText)
joined = join(",", [secretText])
tried = try(secretText, "x")
canned = can(secretText)
recovered = recover(secretText, error)
