# Components that read each other's outputs, each output read from a
# resource the component holds, which waits for the component's
# registration: first and second directly, another and many through many's
# range.  The registration of second (and of many) cannot wait for its
# input, which waits for first's child and so for first's registration,
# which waits for second's output: it is registered without it.

component "first" "./first" {
    input = second.untainted
}

component "second" "./second" {
    input = first.untainted
}

component "another" "./first" {
    input = (join("", [ for _, v in many : v.untainted ? "a" : "b" ]) == "xyz")
}

component "many" "./second" {
    options {
        range = 2
    }
    input = another.untainted
}

output "untainted" {
    value = [first.untainted, second.untainted, another.untainted, many[0].untainted, many[1].untainted]
}

output "tainted" {
    value = [first.tainted, second.tainted, another.tainted, many[0].tainted, many[1].tainted]
}
