# Exact ints of any size (D3), int64 edges, and doubles as static constants.
output numbers {
  value = [1e40, -123456789012345678901234567890, 9223372036854775807, -9223372036854775808, 3.14, 1e-3, 2.5e300, 1e40 + 1, 7 / 2]
}
