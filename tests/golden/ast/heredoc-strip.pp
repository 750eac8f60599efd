# ${~ strips back only through the literal token just before it; in a
# heredoc every line break ends a token.
several-blank-lines = <<EOT
a


   ${~ x}
EOT
strip-after = <<EOT
${x ~}


b
EOT
same-line = <<EOT
a   ${~ x ~}   b
EOT
