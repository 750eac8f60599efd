# Every top-level block kind, without schemas.
count = 3

config region "string" {
  default     = "eu-west-1"
  description = "Where to deploy."
}

config anything {
}

config password "string" {
  secret = true
}

config maybe "int" {
  default = null
}

config optionalName "string" {
  nullable = true
}

resource bucket "storage:index:Bucket" {
  name = "b-${region}"
  size = count
}

read existing "storage:index:Bucket" {
  id = "bucket-1"
}

component thing {
  token  = "my:custom:Component"
  number = 42
}

hook resource "before" {
  command  = ["echo", args.name]
  onDryRun = true
}

hook error "retry" {
  command      = ["./retry.sh"]
}

pulumi {
  requiredVersionRange = ">=3.100.0"
}

output bucketName {
  value = bucket.name
}

output typed "list(string)" {
  __logicalName = "typed-output"
  value         = [region, "x"]
}

output "not an identifier" {
  value = count
}
