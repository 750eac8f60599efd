a = <<EOT
onetwo
EOT
b = "xy"
c = "crlf ok"
