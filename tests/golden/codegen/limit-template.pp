# A template that doubles a string again and again ends in an error at the
# value size limit (--max-value-size, here 1 MiB: the 18th doubling of 8
# bytes is 2 MiB) instead of running out of memory.
s0 = "abcdefgh"
s1 = "${s0}${s0}"
s2 = "${s1}${s1}"
s3 = "${s2}${s2}"
s4 = "${s3}${s3}"
s5 = "${s4}${s4}"
s6 = "${s5}${s5}"
s7 = "${s6}${s6}"
s8 = "${s7}${s7}"
s9 = "${s8}${s8}"
s10 = "${s9}${s9}"
s11 = "${s10}${s10}"
s12 = "${s11}${s11}"
s13 = "${s12}${s12}"
s14 = "${s13}${s13}"
s15 = "${s14}${s14}"
s16 = "${s15}${s15}"
s17 = "${s16}${s16}"
s18 = "${s17}${s17}"
output big {
  value = s18
}
