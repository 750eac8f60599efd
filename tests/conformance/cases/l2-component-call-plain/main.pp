resource "configurer" "configurer:index:Configurer" {
    providerConfig = "propagated"
}

output "plainValue" {
    value = call(configurer, "plainValue", {})
}

resource "customFromPlainProvider" "configurer:index:Custom" {
    value = "plain"
    options {
        provider = call(configurer, "plainProvider", {})
    }
}

nested = call(configurer, "nestedPlainProvider", {})

resource "customFromNestedPlainProvider" "configurer:index:Custom" {
    value = "nested"
    options {
        provider = nested.provider
    }
}

output "nestedPlainValue" {
    value = nested.value
}
