read c "component:index:ComponentCallable" {
  id = "x"
}
