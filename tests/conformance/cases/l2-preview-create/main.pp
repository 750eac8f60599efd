resource "sink" "enum:index:Res" {
    intEnum = 1
    stringEnum = "two"
}

resource "goodbye" "simple-invoke:index:StringResource" {
    text = "hello"
}

resource "plain" "simple:index:Resource" {
    value = true
}

output "sinkId" {
    value = sink.id
}

output "goodbyeText" {
    value = goodbye.text
}

output "plainId" {
    value = plain.id
}
