# A heredoc's value ends with a newline; an interpolation at line start
# disables <<- trimming; a tab is one character of indentation.
ends-with-newline = <<EOT
hi
EOT
interp-at-start = <<-EOT
    a
${b}
    EOT
tab-one-char = <<-EOT
	a
    b
EOT
