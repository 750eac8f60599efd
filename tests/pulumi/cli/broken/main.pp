// A program pclc rejects (tests/pulumi/cli.sh): a name that is not defined.
resource "r" "pulumi:index:Stash" {
  input = missing
}
