# Hook blocks: the command is a function of `args`, computed each time the
# engine runs the hook; onDryRun and ignoreErrors are computed once.
config marker string {}
config previews bool {
  default = true
}

hook resource "touchHook" {
  command  = ["test", "-n", "${marker}_${args.name}"]
  onDryRun = previews
}

hook resource "listHook" {
  command      = ["echo", args.urn, join(",", [for k, v in args.newInputs : k])]
  ignoreErrors = true
}

hook error "retryHook" {
  command = ["test", "-e", args.type]
}

resource "res" "simple:index:Resource" {
  value = true
  options {
    hooks = {
      beforeCreate = [touchHook]
      afterCreate  = [touchHook, listHook]
      onError      = [retryHook]
    }
  }
}
