# A template that is exactly one interpolation keeps the inner value.
alone = "${x}"
bool = "${true}"
list = "${[1, 2]}"
with-strip = "${~ x ~}"
two = "${x}${y}"
empty-first = "${""}${true}"
text-before = "a${x}"
text-after = "${x}a"
for-directive = "%{for v in [true]}${v}%{endfor}"
if-directive = "%{if c}${x}%{endif}"
heredoc-alone = <<EOT
${x}
EOT
