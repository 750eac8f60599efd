read "named" "names:index:ResMap" {
    id = "some-id"
}

read "kebab" "kebab-names:kebab-module:anotherResource" {
    id = "kebab-id"
}

output "namedValue" {
    value = named.value
}
