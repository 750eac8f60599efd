package {
  baseProviderName    = "simple"
  baseProviderVersion = "2.0.0"
}

resource r "simple:index:Resource" {
  value = true
}
