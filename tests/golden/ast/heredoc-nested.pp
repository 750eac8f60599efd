# A heredoc may appear inside an interpolation in a heredoc.
outer = <<OUTER
before
${upper(<<INNER
inner text ${x}
INNER
)}
after
OUTER
in-quoted = "${<<EOT
text
EOT
}"
in-call = join("", [<<A
a
A
, <<-B
    b
    B
])
