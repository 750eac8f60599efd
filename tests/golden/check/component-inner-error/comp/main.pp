output o {
  value = undefinedThing
}
