config name "string" {
}

config size "int" {
  default = 3
}

output greeting {
  value = "hello ${name} ${size}"
}

output typed "list(int)" {
  value = [size]
}
