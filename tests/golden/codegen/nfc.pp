# Strings are NFC everywhere (DECISIONS.md D9): a literal written with an
# escape or with a decomposed character in the source, a key written bare,
# quoted or computed, a value built at run time, read from config or
# answered by the engine all compare, sort and index by their NFC form.
config word string {}
resource r "simple-invoke:index:StringResource" {
  text = "x"
}
escaped = "cafe\u0301"
composed = "caf\u00e9"
raw = "café"
bare = { café = "bare" }
output equal {
  value = [escaped == composed, raw == composed, "cafe${"\u0301"}" == composed,
    join("", ["cafe", "\u0301"]) == composed, word == composed, r.text == composed]
}
output lengths {
  value = [length(escaped), length(raw), length(word)]
}
# NFC orders "é" (C3 A9) after "f"; the decomposed form would come first.
output sorted {
  value = { "e\u0301" = 1, f = 2, "a" = 3 }
}
output indexed {
  value = [bare["café"], { (word) = "computed" }["caf\u00e9"], { "${r.text}" = "engine" }[escaped]]
}
output merged {
  value = { (word) = "computed", "café" = "literal" }
}
heredoc = <<EOT
café
EOT
output heredoc {
  value = heredoc == "${composed}\n"
}
