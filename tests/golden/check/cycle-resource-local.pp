resource r "simple:index:Resource" {
  value = flag
}

flag = r.value
