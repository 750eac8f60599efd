x = nope.a.b[0] + 1 ? missing : also_missing
