variable "x" {
}

y = 1
