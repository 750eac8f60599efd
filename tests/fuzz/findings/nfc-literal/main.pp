# String literals are in NFC like every other string (DECISIONS.md D9): a
# literal written with a combining sequence, raw or escaped, a literal object
# key and a heredoc without interpolation are normalised too.
output literal { value = "ç" }
output escaped { value = "A\u030a" }
output key { value = { "e\u0301" = 1 } }
heredoc = <<EOT
é
EOT
output heredoc { value = heredoc }
