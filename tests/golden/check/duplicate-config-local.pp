config name "string" {
}

name = "x"
