# A quoted label decodes escapes; it may not contain template sequences,
# but a lone dollar or percent sign and the doubled escapes are fine.
resource "tab\there" "quote\"d" {
}
config "caf\u00e9" "list(string)" {
}
block "$5" "100%" "$${x}" "%%{y}" {
}
block "" {
}
