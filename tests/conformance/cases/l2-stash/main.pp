resource "kept" "pulumi:index:Stash" {
    input = {
        list = [1, "two"]
        flag = true
    }
}

resource "short" "pulumi:Stash" {
    input = "hello"
}

output "kept" {
    value = kept.output
}

output "short" {
    value = short.output
}
