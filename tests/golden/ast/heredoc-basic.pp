basic = <<EOT
hello
world
EOT
indented-content = <<EOT
  two spaces
    four spaces
EOT
interp = <<EOT
name: ${name}
${greeting}, ${name}!
EOT
blank-lines = <<EOT

middle

EOT
marker-like-text = <<EOT
EOTX
 EOT is not alone here
XEOT
EOT
other-marker = <<END_OF_TEXT
text
END_OF_TEXT
dashed-marker = <<end-of-text
text
end-of-text
after = 1
