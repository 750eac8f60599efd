# Only the values an expression consumes make it secret (lowering.md §5).
# A %{for} directive is the join of a for expression (syntax.md §3.1), so a
# secret element that its body does not use does not make it secret; nor
# does a secret element that the condition of a for expression skips, so
# that its key is never computed.  pclc makes both results secret.
config hidden "bool" {}
output directive { value = "%{ for v in [secret(1), 2] }x%{ endfor }" }
output forExpression { value = [for v in [secret(1), 2] : "x"] }
output skipped { value = {for i, x in [true, hidden] : "${x}${i}" => 1 if false} }
