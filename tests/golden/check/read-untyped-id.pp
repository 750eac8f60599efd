# A read of a package without a schema takes any inputs but still needs an
# id, wherever it is written.
read noId "storage:index:Bucket" {
  name = "b"
}

read idLast "storage:index:Bucket" {
  name = "b"
  id   = "bucket-1"
}
