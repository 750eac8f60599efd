# Identifiers may contain dashes, start with an underscore, and use
# non-ASCII letters; there are no reserved words.
with-dash = 1
_leading = 2
__logicalName = 3
trailing-dash- = 4
a_b-c_d = 5
café = 6
名前 = 7
Ωmega = 8
if = 9
for = 10
in = 11
resource = 12
endif = 13
ref = with-dash + _leading + café + 名前 + trailing-dash-
