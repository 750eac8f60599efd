x = [for v in [1, 2] : v if [v]]
