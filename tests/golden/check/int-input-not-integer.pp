resource a "primitive:index:Resource" {
  boolean     = true
  float       = 1
  integer     = 2.5
  string      = "s"
  numberArray = []
  booleanMap  = {}
}
