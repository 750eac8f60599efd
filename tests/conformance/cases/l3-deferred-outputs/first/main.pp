config "input" "bool" {}

resource "res" "simple:index:Resource" {
    value = input
}

output "untainted" {
    value = true
}

output "tainted" {
    value = res.value
}
