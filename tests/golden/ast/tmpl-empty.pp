empty = ""
empty-heredoc = <<EOT
EOT
empty-flush-heredoc = <<-EOT
EOT
only-space = " "
