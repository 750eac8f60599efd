resource "comp" "component:index:ComponentCallable" {
    value = "bar"
}

echo = invoke("component:index:identity", {
    input = "reachable"
}, {
    dependsOn = [comp]
})

output "echoed" {
    value = echo.result
}
