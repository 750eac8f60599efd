# Escapes work in quoted strings only; $${ and %%{ work in both.
quoted = "a\nb \u00e9 $${x} %%{y}"
heredoc = <<EOT
a\nb \u00e9 $${x} %%{y}
EOT
