crlf = <<EOT
line one
line two
EOT
flush = <<-EOT
    a
      b
    EOT
after = "x"
