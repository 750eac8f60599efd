package "subpackage" {
    baseProviderName = "parameterized"
    baseProviderVersion = "1.2.3"
    parameterization {
        name = "subpackage"
        version = "2.0.0"
        value = "SGVsbG9Xb3JsZA==" // base64(utf8_bytes("HelloWorld"))
    }
}

resource "prov" "pulumi:providers:subpackage" {
    text = "again"
}

resource "plain" "subpackage:index:HelloWorld" {
}

resource "configured" "subpackage:index:HelloWorld" {
    options {
        provider = prov
    }
}

resource "component" "subpackage:index:HelloWorldComponent" {
}

output "plainValue" {
    value = plain.parameterValue
}

output "configuredValue" {
    value = configured.parameterValue
}

output "componentValue" {
    value = component.parameterValue
}
