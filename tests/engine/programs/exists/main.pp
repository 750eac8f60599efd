# The program of the engine protocol's resourceExists tests
# (tests/engine/faults): checks with and without a state, and one whose id
# is secret.

resource bucket "aws:s3/bucket:Bucket" {
  forceDestroy = true
}

output plain {
  value = resourceExists("aws:s3/bucket:Bucket", bucket.id)
}

output withState {
  value = resourceExists("aws:s3/bucket:Bucket", bucket.id, { forceDestroy = true })
}

output missing {
  value = resourceExists("aws:s3/bucket:Bucket", "nothing_id")
}

output secretId {
  value = resourceExists("aws:s3/bucket:Bucket", secret(bucket.id))
}
