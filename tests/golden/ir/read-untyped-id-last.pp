# A read of a package without a schema whose id is not its first attribute.

read idLast "storage:index:Bucket" {
  name = "b"
  id   = "bucket-1"
}
