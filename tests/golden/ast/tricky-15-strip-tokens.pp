# Strip markers act on the adjacent literal token only, never on values;
# the token boundaries of the reference lexer matter.
values = "${" a " ~} ${~ " b "}"
lone-dollar = "a $ ${~ x}"
lone-percent = "a % ${~ x}"
heredoc = <<EOT
line


  ${~ x}
EOT
