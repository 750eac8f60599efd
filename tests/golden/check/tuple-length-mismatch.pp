config t "tuple([string, int])" {
  default = ["a"]
}
