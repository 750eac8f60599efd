# A line that starts with an interpolation counts as indentation 0, so no
# line is trimmed.
disabled = <<-EOT
    indented
${x} at start
    indented
    EOT
directive-at-start = <<-EOT
    indented
%{if c}yes%{endif}
    EOT
# Indentation produced by interpolated values never counts.
value-indent = <<-EOT
    ${"      "}a
    b
    EOT
