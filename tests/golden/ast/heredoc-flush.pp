# <<- removes the smallest indentation of the non-blank lines.
same = <<-EOT
    a
    b
    EOT
different = <<-EOT
      deeper
    base
        deepest
  EOT
blank-lines-ignored = <<-EOT
    a

    b
  
    c
EOT
first-line-zero = <<-EOT
no indentation
    some
EOT
interp-after-text = <<-EOT
    name: ${name}
      more: ${x}
    EOT
directive = <<-EOT
    %{ for x in xs }
    item ${x}
    %{ endfor }
    EOT
