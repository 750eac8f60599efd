# A config value is parsed by its type from its raw text (program.md 6); the
# string values it gives are then in NFC (D9).  Read from a config file (or
# PULUMI_CONFIG) as from --config, the raw text is not normalised first, so
# the JSON escape `\t` followed by U+0308 stays an escape.
config fromFile "list(string)" {}
config fromFlag "list(string)" {}
output fromFile { value = fromFile }
output fromFlag { value = fromFlag }
