config peer "string" {
  default = ""
}

output out {
  value = "left"
}
