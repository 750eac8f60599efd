# A program that requires a Pulumi version (tests/engine/faults): the engine
# that hosts the run checks the range.

pulumi {
  requiredVersionRange = ">=3.0.0 <4.0.0"
}

resource bucket "aws:s3/bucket:Bucket" {
  forceDestroy = true
}
