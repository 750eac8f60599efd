a = <<EOT # comment
text
EOT
