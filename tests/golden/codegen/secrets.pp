# Secrets: secret config, secret(), unsecret(), secretness through templates.
config token "string" {
  secret = true
  default = "s3cr3t"
}
resource r "simple:index:Resource" {
  value = secret("hidden")
  plain = "x"
}
output wrapped {
  value = "token=${token}"
}
output revealed {
  value = unsecret(secret("visible"))
}
output resourceSecret {
  value = r.value
}
output plain {
  value = r.plain
}
