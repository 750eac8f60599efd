# An expression that needs a config's value is an apply, as one over an
# output is: a config stands eventual, since the run may make it secret.
# An apply resolves its arguments deeply, so a secret anywhere in them makes
# its result secret as a whole (lowering.md 5), where the interpreter's
# marks would stay on the elements; a constructor keeps its elements' own.
config flag "bool" {
}
config names "list(string)" {
  default = ["a", "b"]
}
config levels "list(int)" {
  default = [secret(4), 5]
}

output marks {
  value = [for n in names : "${flag}"]
}
output ones {
  value = [for m in [for n in names : "${flag}"] : 1]
}
output copied {
  value = [for level in levels : level]
}
output tried {
  value = [for v in try([flag, true]) : 1]
}
output kept {
  value = [flag, true]
}
