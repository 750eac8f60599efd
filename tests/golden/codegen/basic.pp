config prefix "string" {
  default = "app"
}
name = "${prefix}-x"
resource a "simple:index:Resource" {
  value = true
  label = name
}
resource b "simple:index:Resource" {
  text = "id is ${a.id}!"
  options {
    dependsOn = [a]
    protect = true
  }
}
output text {
  value = b.text
}
output n {
  value = 1 + 2
}
