resource "firstResource" "keywords:index:SomeResource" {
    builtins = "builtins"
    lambda = "lambda"
    property = "property"
}

resource "secondResource" "keywords:lambda:SomeResource" {
    builtins = firstResource.builtins
    lambda = firstResource.lambda
    property = firstResource.property
}

resource "lambdaModuleResource" "keywords:module:Lambda" {
    builtins = "builtins"
    lambda = "lambda"
    property = "property"
}
