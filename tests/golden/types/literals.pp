# Literal typing (types.md §8 with DECISIONS.md D3).
int = 42
negative = -7
integralFloat = 1.0
exponent = 1e3
big = 3000000000
huge = 123456789012345678901234567890
bigExponent = 1e40
fraction = 3.14
small = 1e-3
yes = true
no = false
nothing = null
text = "foo"
empty = ""
heredoc = <<EOT
line one
line two
EOT
passThrough = "${int}"
interpolated = "v=${int}"
conditionalTemplate = "%{if yes}on%{else}off%{endif}"
forTemplate = "%{for x in ["a", "b"]}${x},%{endfor}"
