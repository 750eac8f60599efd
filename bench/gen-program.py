#!/usr/bin/env python3
"""gen-program.py: writes a large, realistic PCL program for benchmarks.

Usage: bench/gen-program.py N [OUTPUT]

Writes a program that declares exactly N resources to OUTPUT (default:
standard output).  The program is deterministic (same N, same bytes) and is
built from the shapes found in real programs (../shared/programs/): config
blocks with defaults, local variables holding for-expressions and templates,
resources whose inputs are nested objects and lists that reference other
resources' attributes, ranged resources (`options { range = ... }`), option
blocks, heredocs, invokes, toJSON policies and outputs.

The resource types come from the `random` and `tls` packages whose schemas are
in ../shared/programs/_schemas/, and every input is one the schema declares
with a value of the right shape, so that later phases can also type-check and
compile the program (`pclc --check --schema-path ../shared/programs/_schemas`).

Resources come in units of ten that reference each other and the previous
unit, so the dependency graph is connected and realistic rather than a flat
list of independent nodes.
"""

import sys

UNIT = 10


def header(out):
    out.append(
        """// Generated benchmark program: certificates, keys and random names for a
// fleet of services.  Every unit below is one service.

config environment string {
  default     = "staging"
  description = "Deployment environment name"
}

config replicas int {
  default = 3
}

config enableUpper bool {
  default = true
}

config "commonTags" "map(string)" {
  default = {
    owner   = "platform-team"
    project = "benchmark"
  }
}

region = "us-west-2"
domain = "${environment}.example.com"
# PCL has no merge(): the tags are spelled out.
baseTags = {
  owner       = lookup(commonTags, "owner", "unknown")
  project     = lookup(commonTags, "project", "unknown")
  environment = environment
  region      = region
}
"""
    )


def resource(u, k):
    """Returns the text of resource number k (0..9) of unit u."""
    prev = "pet%d.id" % (u - 1) if u > 0 else "environment"
    if k == 0:
        return """
// Service %(u)d: signing key, name, certificate and credentials.
resource key%(u)d "tls:index/privateKey:PrivateKey" {
  algorithm = "RSA"
  rsaBits   = 2048
}
""" % {"u": u}
    if k == 1:
        return """
resource pet%(u)d "random:index/randomPet:RandomPet" {
  prefix    = "${environment}-svc%(u)d"
  length    = 2
  separator = "-"
  keepers = {
    previous = %(prev)s
    unit     = "%(u)d"
  }
}
""" % {"u": u, "prev": prev}
    if k == 2:
        return """
resource cert%(u)d "tls:index/selfSignedCert:SelfSignedCert" {
  privateKeyPem       = key%(u)d.privateKeyPem
  validityPeriodHours = 24 * 365
  earlyRenewalHours   = 24 * 30
  allowedUses = [
    "key_encipherment",
    "digital_signature",
    "server_auth",
  ]
  dnsNames = [for i in range(3) : "host-${i}.${pet%(u)d.id}.${domain}"]
  subject = {
    commonName      = "${pet%(u)d.id}.${domain}"
    organization    = "Example Corp, unit %(u)d"
    streetAddresses = ["1 Main Street", "Suite %(u)d"]
  }
}
""" % {"u": u}
    if k == 3:
        return """
resource password%(u)d "random:index/randomPassword:RandomPassword" {
  length          = 16 + %(u)d %% 8
  special         = true
  overrideSpecial = "_%%@"
  minUpper        = enableUpper ? 2 : 0
  keepers = {
    pet    = pet%(u)d.id
    banner = <<-EOT
      Service %(u)d in ${environment}
      managed by ${baseTags["owner"]}
      EOT
  }
}
""" % {"u": u}
    if k == 4:
        return """
resource ids%(u)d "random:index/randomId:RandomId" {
  options {
    range = replicas
  }
  byteLength = 8
  prefix     = "${pet%(u)d.id}-${range.value}-"
  keepers = {
    owner = baseTags.owner
    index = "${range.value}"
  }
}
""" % {"u": u}
    if k == 5:
        return """
resource shuffle%(u)d "random:index/randomShuffle:RandomShuffle" {
  inputs      = [for id in ids%(u)d : id.hex]
  resultCount = 2
  keepers = {
    policy = toJSON({
      Version = "2012-10-17"
      Statement = [{
        Effect   = "Allow"
        Action   = ["s3:GetObject", "s3:ListBucket"]
        Resource = "arn:aws:s3:::${pet%(u)d.id}/*"
      }]
    })
  }
}
""" % {"u": u}
    if k == 6:
        return """
resource integer%(u)d "random:index/randomInteger:RandomInteger" {
  min     = 1
  max     = 100 * (%(u)d + 1)
  seed    = password%(u)d.result
  keepers = {for key, value in baseTags : key => "${value}-%(u)d"}
}
""" % {"u": u}
    if k == 7:
        return """
resource token%(u)d "random:index/randomString:RandomString" {
  options {
    dependsOn     = [password%(u)d]
    protect       = false
    ignoreChanges = [length]
  }
  length     = 12
  upper      = enableUpper
  minNumeric = 2
  special    = false
}
""" % {"u": u}
    if k == 8:
        return """
resource uuid%(u)d "random:index/randomUuid:RandomUuid" {
  keepers = {
    cert    = cert%(u)d.certPem
    shuffle = join(",", shuffle%(u)d.results)
    first   = ids%(u)d[0].hex
  }
}
""" % {"u": u}
    return """
resource csr%(u)d "tls:index/certRequest:CertRequest" {
  privateKeyPem = key%(u)d.privateKeyPem
  dnsNames      = shuffle%(u)d.results
  ipAddresses   = ["10.%(a)d.%(b)d.1", "10.%(a)d.%(b)d.2"]
  subject = {
    commonName = "api.${pet%(u)d.id}.${domain}"
    country    = "US"
    province   = region
  }
}
""" % {"u": u, "a": (u // 256) % 256, "b": u % 256}


def unit_tail(u, count):
    """Locals and outputs of unit u, given how many of its resources exist."""
    text = []
    if count > 4:
        text.append(
            """
hexIds%(u)d = [for id in ids%(u)d : id.hex if id.byteLength > 4]
label%(u)d  = "${environment}/${pet%(u)d.id}: %%{ for h in hexIds%(u)d }${h} %%{ endfor }"
""" % {"u": u}
        )
    if count > 2:
        text.append(
            """
output cert%(u)dPem {
  value = cert%(u)d.certPem
}
""" % {"u": u}
        )
    if count > 4:
        text.append(
            """
output ids%(u)dHex {
  value = ids%(u)d[*].hex
}
""" % {"u": u}
        )
    return "".join(text)


def generate(n):
    out = []
    header(out)
    u = 0
    left = n
    while left > 0:
        count = min(UNIT, left)
        for k in range(count):
            out.append(resource(u, k))
        out.append(unit_tail(u, count))
        left -= count
        u += 1
    return "".join(out)


def main(argv):
    if len(argv) not in (2, 3) or not argv[1].isdigit():
        sys.stderr.write("usage: bench/gen-program.py N [OUTPUT]\n")
        return 2
    text = generate(int(argv[1]))
    if len(argv) == 3:
        with open(argv[2], "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
