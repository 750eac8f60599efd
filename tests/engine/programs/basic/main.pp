# The program of the engine protocol's fault tests (tests/engine/faults):
# a bucket, objects that depend on its id, an invoke and outputs.

config count int {
  default = 3
}

resource bucket "aws:s3/bucket:Bucket" {
  forceDestroy = true
  tags = {
    Name = "faults"
  }
}

resource objects "aws:s3/bucketObject:BucketObject" {
  options {
    range = count
  }
  bucket  = bucket.id
  key     = "object-${range.value}"
  content = "content ${range.value}"
}

zones = invoke("aws:index/getAvailabilityZones:getAvailabilityZones", {
  state = "available"
})

output bucketId {
  value = bucket.id
}

output zones {
  value = zones
}

# An output of the bucket that is not one of its inputs: the test engine
# answers with the inputs only, so it is missing from the answer.
output bucketArn {
  value = bucket.arn
}
