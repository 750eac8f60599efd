# Application configuration for Kubernetes, computed from stack config with
# PCL's built-in functions: a secret with database credentials (from secret
# config), a config map with settings rendered as JSON and as a properties
# file, and outputs that show secrets staying secret.

config dbPassword string {
  secret      = true
  description = "Password of the application's database user"
}

config apiToken string {
  default = "dev-token-0000"
}

config hostname string {
  default = "shop.example.com"
}

config "features" "list(string)" {
  default = ["search", "checkout", "reviews"]
}

config "limits" "map(int)" {
  default = {
    cpu      = 2
    memoryMb = 512
  }
}

config debug bool {
  default = false
}

# The domain is the hostname without its first label.
hostLabels = split(".", hostname)
domain     = join(".", [for i, label in hostLabels : label if i > 0])

settings = {
  features     = join(",", features)
  firstFeature = element(features, 0)
  lastFeature  = element(features, -1)
  featureCount = length(features)
  logLevel     = debug ? "debug" : "info"
  memory       = "${lookup(limits, "memoryMb", 256)}Mi"
  cpu          = lookup(limits, "cpu", 1)
  diskGb       = try(limits["diskGb"], 10)
  hasDisk      = can(limits["diskGb"])
  domain       = domain
}

# A properties file with one line per limit, in key order.
properties = <<-EOT
  # Generated for ${stack()}; do not edit.
  %{ for e in entries(limits) ~}
  limit.${e.key}=${e.value}
  %{ endfor ~}
  log.level=%{ if debug }debug%{ else }info%{ endif }
EOT

shards = [for i in range(3) : "shard-${i}.${domain}"]
ports  = [for p in range(8080, 8083) : "${p}"]
token  = secret(apiToken)

resource dbCredentials "kubernetes:core/v1:Secret" {
  metadata = {
    name = "db-credentials"
  }
  type = "Opaque"
  data = {
    username = toBase64("app")
    password = toBase64(dbPassword)
    url      = toBase64("postgres://app:${dbPassword}@db.${domain}:5432/shop")
  }
}

resource apiCredentials "kubernetes:core/v1:Secret" {
  metadata = {
    name = "api-credentials"
  }
  stringData = {
    token = token
  }
}

resource appConfig "kubernetes:core/v1:ConfigMap" {
  metadata = {
    name = "app-config"
    annotations = {
      "example.com/settings-sha1" = sha1(toJSON(settings))
    }
  }
  data = {
    "settings.json"  = toJSON(settings)
    "app.properties" = properties
    shards           = join(" ", shards)
    ports            = join(",", ports)
    domainBase64     = toBase64(domain)
    domainRoundTrip  = fromBase64(toBase64(domain))
  }
}

output settingsSha1 {
  value = sha1(toJSON(settings))
}

output shardCount {
  value = length(shards)
}

output firstShard {
  value = element(shards, 0)
}

output limitNames {
  value = [for e in entries(limits) : "limit.${e.key}"]
}

output databaseUrl {
  value = dbCredentials.data.url
}

output apiToken {
  value = token
}

output plainDomain {
  value = unsecret(secret(domain))
}
