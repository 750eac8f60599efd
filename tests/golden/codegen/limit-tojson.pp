# toJSON(toJSON(...)) 100 deep: each level escapes the quotes and
# backslashes of the one inside, so the text doubles; it ends in an error at
# the value size limit (--max-value-size, here 1 MiB) instead of running out
# of memory.
output nested {
  value = toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(["quote \" and backslash \\"]))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
}
