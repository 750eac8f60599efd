# & | ; ' ` are only errors as tokens; inside strings they are text.
s = "a & b | c; 'd' `e` ^"
h = <<EOT
a && b || c; 'd'
EOT
