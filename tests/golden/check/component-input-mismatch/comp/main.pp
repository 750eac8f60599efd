config name "string" {
}

output greeting {
  value = "hello ${name}"
}
