# A program with an int that a double cannot hold (tests/engine/faults): the
# engine protocol carries numbers as doubles, so it is sent rounded, with a
# warning (DECISIONS.md D3).

output big {
  value = 9007199254740993
}

output exact {
  value = 9007199254740992
}
