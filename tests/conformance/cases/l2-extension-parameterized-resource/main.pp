package {
    baseProviderName = "extbase"
    baseProviderVersion = "45.0.0"
    parameterization {
        name = "myext"
        version = "2.0.0"
        value = "SGVsbG8="
    }
}

resource "greeting" "myext:index:Greeting" {
}

resource "component" "myext:index:GreetingComponent" {
}

resource "base" "extbase:index:Base" {
}

output "parameterValue" {
    value = greeting.parameterValue
}

output "parameterValueFromComponent" {
    value = component.parameterValue
}

output "greeting" {
    value = invoke("myext:index:greet", { name = "world" }).greeting
}
