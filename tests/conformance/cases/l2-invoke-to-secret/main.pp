secrets = invoke("config-grpc:index:toSecret", {
    string1 = "hidden"
    int1 = 7
    listBool1 = [true, false]
})

output "string1" {
    value = secrets.string1
}

output "int1" {
    value = secrets.int1
}

output "listBool1" {
    value = secrets.listBool1
}
