# The closing marker may be indented, and trailing spaces after it are fine.
indented-close = <<EOT
text
    EOT
indented-flush-close = <<-EOT
    text
        EOT
trailing-space = <<EOT
text
EOT   
next = 1
