config name "string" {
}

config size "int" {
  default = 3
}

output greeting {
  value = "hello ${name}"
}
