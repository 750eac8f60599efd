# In a resource with range, an input that fails to convert to its schema
# type fails that instance's registration with the conversion's message and
# location, which reaches the output that reads the instance.
resource r "simple:index:Resource" {
  options {
    range = ["true", "maybe"]
  }
  value = range.value
}
output second {
  value = r[1].value
}
