list = <<EOT
%{ for name in names ~}
- ${name}
%{ endfor ~}
EOT
cond = <<EOT
%{ if enabled ~}
on
%{ else ~}
off
%{ endif ~}
EOT
