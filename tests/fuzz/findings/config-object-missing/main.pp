# The properties of an object-typed config are optional (program.md §6); a
# JSON value without one of them gives the property null (types.md §4.5:
# "object -> object fills missing optional attributes with null").
config o "object({a=int, b=string})" {}
output o { value = o }
