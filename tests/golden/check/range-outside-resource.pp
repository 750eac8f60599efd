x = range.value
