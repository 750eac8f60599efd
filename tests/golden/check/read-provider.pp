read p "pulumi:providers:simple" {
  id = "x"
}
