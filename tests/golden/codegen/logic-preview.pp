# && and || decide on a known side even when the other is unknown (preview).
resource a "simple:index:Resource" {
  value = true
}
output shortAnd {
  value = false && a.id == "x"
}
output shortOr {
  value = true || a.id == "x"
}
output unknownAnd {
  value = true && a.id == "x"
}
