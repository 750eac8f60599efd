# A static website: one S3 bucket set up for website hosting, one object per
# file listed in the site's manifest (www/files.txt), and a bucket policy
# that lets anyone read the objects.

config siteDir string {
  default     = "www"
  description = "Folder holding the site's files and its manifest, files.txt"
}

config indexDocument string {
  default = "index.html"
}

config errorDocument string {
  default = "404.html"
}

# Content types by file extension; anything else is served as binary.
contentTypes = {
  html = "text/html; charset=utf-8"
  css  = "text/css"
  js   = "application/javascript"
  png  = "image/png"
  svg  = "image/svg+xml"
  txt  = "text/plain"
}

# One file name per line.  Blank lines and comment lines (starting with #)
# are skipped: for both, the text before the first # is empty.
siteFiles = [for line in split("\n", readFile("${siteDir}/files.txt")) : line
  if split("#", line)[0] != ""]

resource siteBucket "aws:s3/bucket:Bucket" {
  forceDestroy = true
  website = {
    indexDocument = indexDocument
    errorDocument = errorDocument
  }
  tags = {
    Name    = "site-${stack()}"
    Project = project()
  }
}

resource siteObjects "aws:s3/bucketObject:BucketObject" {
  options {
    range = length(siteFiles)
  }
  bucket      = siteBucket.id
  key         = siteFiles[range.value]
  source      = fileAsset("${siteDir}/${siteFiles[range.value]}")
  contentType = lookup(contentTypes, element(split(".", siteFiles[range.value]), -1), "application/octet-stream")
  acl         = "public-read"
}

resource bucketPolicy "aws:s3/bucketPolicy:BucketPolicy" {
  bucket = siteBucket.id
  policy = toJSON({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = ["s3:GetObject"]
      Resource  = ["${siteBucket.arn}/*"]
    }]
  })
}

output bucketName {
  value = siteBucket.bucket
}

output websiteUrl {
  value = "http://${siteBucket.websiteEndpoint}"
}

output objectKeys {
  value = [for o in siteObjects : o.key]
}
