# A range that stands eventual at the top (a for expression over a config)
# is settled at the top only when the instances are made: its elements,
# here try() results and a secret, stay as they are, and the instances
# read range.value through applies.  Only the instance whose element is
# secret has a secret input.
config levels "list(int)" {
  default = [1, 2]
}
resource checked "simple:index:Resource" {
  value = range.value ? true : false
  options {
    range = [for level in levels : try(level > 1, false)]
  }
}
resource hidden "simple:index:Resource" {
  value = !range.value
  options {
    range = [for level in levels : level > 1 ? secret(true) : false]
  }
}
