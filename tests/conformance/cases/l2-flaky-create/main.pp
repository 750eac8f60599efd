resource "first" "flaky:index:FlakyCreate" {
}

resource "second" "flaky:index:FlakyCreate" {
}
