# Components that read each other's outputs: first and second directly,
# another and many through many's range.  No output depends on itself.
component "first" "./first" {
    input = second.untainted
}

component "second" "./first" {
    input = first.untainted
}

component "another" "./first" {
    input = length([for v in many : v.untainted]) == 2
}

component "many" "./first" {
    options {
        range = 2
    }
    input = another.untainted
}

output "tainted" {
    value = [first.tainted, second.tainted, another.tainted, many[1].tainted]
}
