// An invoke's argument object gets the schema defaults of the inputs it
// leaves out, after its own, as a resource's inputs do; an input given
// keeps its value.
output "defaulted" {
  value = invoke("fndefaults:index:lookup", { name = "a" }).result
}

output "given" {
  value = invoke("fndefaults:index:lookup", { name = "b", region = "south" }).result
}
