resource a "simple:index:Resource" {
  value = true
}

resource b "simple:index:Resource" {
  value = true
  options {
    dependsOn = "a"
  }
}
