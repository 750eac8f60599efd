a = "text%{endif}"
