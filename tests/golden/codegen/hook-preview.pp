# In a preview the embedded engine runs only the hooks registered with
# onDryRun: `skipped` would fail the registration if it ran; `previewed`
# runs, and its warning shows the args it saw: no id yet, the inputs.
hook resource "skipped" {
  command = ["false"]
}

hook resource "previewed" {
  command      = ["sh", "-c", "echo \"saw $0\"; exit 1", "${args.id}|${args.newInputs.value}"]
  onDryRun     = true
  ignoreErrors = true
}

resource "res" "simple:index:Resource" {
  value = true
  options {
    hooks = {
      beforeCreate = [skipped, previewed]
      afterCreate  = [skipped]
    }
  }
}
