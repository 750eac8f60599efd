x = nope[*].id
