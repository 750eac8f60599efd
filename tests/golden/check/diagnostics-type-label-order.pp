# Diagnostics come in source order, whatever phase found them.
x = nope

config c "lst(string)" {
}
