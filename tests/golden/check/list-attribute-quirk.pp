# types.md §6: `.name` on a list type-checks (the key converts unsafely to a
# number); it fails at run time.
resource a "simple:index:Resource" {
  value = true
  options {
    range = 2
  }
}

x = a.value
