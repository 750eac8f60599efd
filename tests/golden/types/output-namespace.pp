# Outputs have their own namespace: an output may share a local's name,
# and a name that is only an output resolves to it.
input = "x"

output input {
  value = input
}

output only "string" {
  value = "y"
}

useOnly = only
