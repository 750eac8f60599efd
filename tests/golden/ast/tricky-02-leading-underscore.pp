__logicalName = "name"
_ = 1
_a-b_ = _
ref = __logicalName
resource r "pkg:index:Thing" {
  __logicalName = "r"
}
