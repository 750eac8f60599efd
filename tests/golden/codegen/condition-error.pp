# A condition that is neither a bool nor a string that converts to one
# fails at run time, naming the value and the condition's location.
config answer string {
  default = "yes"
}
output chosen {
  value = answer ? 1 : 2
}
