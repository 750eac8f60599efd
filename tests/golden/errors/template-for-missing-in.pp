a = "%{for x xs}${x}%{endfor}"
