config o "object({a = string})" {
}

x = o[0]
