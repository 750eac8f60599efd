// A local component: one stash under the component.
config "prefix" "string" {}

resource "inner" "pulumi:index:Stash" {
  input = "${prefix} from the component"
}

output "value" {
  value = inner.input
}
