# The embedded engine runs a created resource's hooks: beforeCreate before
# the mock answers, afterCreate after it, with `args` describing the
# resource (a hook whose command exits non-zero fails the registration, so
# each `test` below checks what args holds); a failing hook with
# ignoreErrors only warns.
config suffix string {
  default = "true"
}

hook resource "before" {
  command = ["test", "${args.name}|${args.type}|${args.id}|${args.newInputs.value}|${length(args.newOutputs)}",
             "=", "res|simple:index:Resource||${suffix}|0"]
}

hook resource "after" {
  command = ["test", "${args.id}|${args.newOutputs.value}|${args.urn}",
             "=", "res_id|true|urn:pulumi:dev::hook-runs::simple:index:Resource::res"]
}

hook resource "ignored" {
  command      = ["sh", "-c", "echo ignored failure; exit 3"]
  ignoreErrors = true
}

resource "res" "simple:index:Resource" {
  value = true
  options {
    hooks = {
      beforeCreate = [before]
      afterCreate  = [after, ignored]
    }
  }
}

output id {
  value = res.id
}
