# A static website: one bucket, one object per file in the site folder.
config siteDir string {
  default = "www"
  description = "Folder holding the site's files"
}

config indexDocument string {
  default = "index.html"
}

resource siteBucket "aws:s3:Bucket" {
  website = {
    indexDocument = indexDocument
    errorDocument = "404.html"
  }
  tags = {
    Name = "site-${stack()}"
  }
}

files = ["index.html", "404.html", "about.html"]

resource siteObjects "aws:s3:BucketObject" {
  options {
    range = length(files)
  }
  bucket = siteBucket.id
  key = files[range.value]
  source = fileAsset("${siteDir}/${files[range.value]}")
  contentType = "text/html"
}

output bucketName {
  value = siteBucket.bucket
}

output websiteUrl {
  value = "http://${siteBucket.websiteEndpoint}"
}
