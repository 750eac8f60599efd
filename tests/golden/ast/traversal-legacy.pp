# The legacy index syntax `.N` is the same as `[N]`.
one = a.0
attr-after = a.0.b
index-after = a.1[2]
after-attr = a.b.3
after-index = a[0].1
big = a.10
leading-zeros = a.007
