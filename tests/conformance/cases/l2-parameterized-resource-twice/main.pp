package {
    baseProviderName = "parameterized"
    baseProviderVersion = "1.2.3"
    parameterization {
        name = "hipackage"
        version = "2.0.0"
        value = "SGVsbG9Xb3JsZA==" // base64(utf8_bytes("HelloWorld"))
    }
}

package {
    baseProviderName = "parameterized"
    baseProviderVersion = "1.2.3"
    parameterization {
        name = "byepackage"
        version = "2.0.0"
        value = "R29vZGJ5ZVdvcmxk" // base64(utf8_bytes("GoodbyeWorld"))
    }
}

resource "hello" "hipackage:index:HelloWorld" {
}

resource "helloComponent" "hipackage:index:HelloWorldComponent" {
}

resource "goodbye" "byepackage:index:GoodbyeWorld" {
}

resource "goodbyeComponent" "byepackage:index:GoodbyeWorldComponent" {
}

output "parameterValues" {
    value = [hello.parameterValue, helloComponent.parameterValue,
             goodbye.parameterValue, goodbyeComponent.parameterValue]
}
