// A program with a local component, whose files are part of the program.
component "c" "./child" {
  flag = true
}

output "value" {
  value = c.value
}
