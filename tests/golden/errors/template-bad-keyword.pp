a = "%{iff x}y%{endif}"
