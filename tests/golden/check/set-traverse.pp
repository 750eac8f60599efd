config s "set(string)" {
}

x = s[0]
