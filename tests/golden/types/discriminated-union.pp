# Object constructors written for a discriminated union are narrowed to the
# member their discriminator selects.
resource one "discriminated-union:index:Example" {
  unionOf        = { discriminantKind = "variant1", field1 = "v1 union" }
  arrayOfUnionOf = [{ discriminantKind = "variant2", field2 = "v2 array(union)" }]
}

resource two "discriminated-union:index:Example" {
  unionOf = { discriminantKind = "variant2", field2 = "v2 union" }
}
