# A program directory whose .pp symbolic links cannot be read: each is an
# error naming it (status 2), not a file silently left out.
output x {
  value = 1
}
