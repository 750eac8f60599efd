# Every string value is in NFC, function results included (D9): the JSON
# text of "\t" followed by U+0308 U+0301 holds the escape `\t` followed by
# the combining marks, which NFC composes with the escape's `t` (U+1E97).
output json { value = toJSON("\t\u0308\u0301") }
