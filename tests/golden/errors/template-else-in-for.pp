a = "%{for x in xs}${x}%{else}none%{endfor}"
