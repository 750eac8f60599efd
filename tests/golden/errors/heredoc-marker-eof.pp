a = <<EOT
text
EOT