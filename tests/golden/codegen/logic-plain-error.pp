# A plain && or || whose deciding side does not decide fails with the
# error of the other side, located where that side is.
output failed {
  value = !(false || (true && !"maybe"))
}
