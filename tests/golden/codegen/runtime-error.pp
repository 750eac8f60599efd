# A run-time error names the PCL source location of the failing expression.
nums = []
output first {
  value = element(nums, 0)
}
