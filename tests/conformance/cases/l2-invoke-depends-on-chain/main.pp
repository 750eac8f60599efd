resource "res" "simple-invoke:index:StringResource" {
    text = "hello"
}

first = invoke("simple-invoke:index:getText", {
    text = "Goodbye"
}, {
    dependsOn = [res]
})

second = invoke("simple-invoke:index:myInvoke", {
    value = first.result
}, {
    dependsOn = [res]
})

output "result" {
    value = second.result
}
