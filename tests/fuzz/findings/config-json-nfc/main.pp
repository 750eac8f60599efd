# A config value is parsed by its type from its raw text (program.md §6); the
# string values it gives are then in NFC (D9).  Read from a config file (or
# PULUMI_CONFIG), the raw text itself is normalised first, so that the JSON
# escape `\t` followed by U+0308 becomes `\` and U+1E97 and the JSON no
# longer parses.  From --config the same text works.
config fromFile "list(string)" {}
config fromFlag "list(string)" {}
output fromFile { value = fromFile }
output fromFlag { value = fromFlag }
