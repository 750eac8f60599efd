a = <<EOT
text
more text
