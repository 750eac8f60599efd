# The worked example of docs/codegen.md: keep the two in step.
config env string {
  default = "dev"
}

resource logs "aws:s3/bucket:Bucket" {
  bucket = "logs-${env}"
  tags   = { Env = env }
}

resource site "aws:s3/bucket:Bucket" {
  bucket = "site-${env}"
  tags   = { Env = env }
}

output url {
  value = "http://${site.websiteEndpoint}/"
}

output arns {
  value = [for i, b in [logs, site] : "${i}: ${b.arn}"]
}
