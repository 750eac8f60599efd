resource a "primitive:index:Resource" {
  boolean = true
  float = 1.5
  integer = 3
  string = "s"
  numberArray = { a = 1 }
  booleanMap = { a = true }
}
