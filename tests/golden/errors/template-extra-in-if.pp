a = "%{if x y}a%{endif}"
