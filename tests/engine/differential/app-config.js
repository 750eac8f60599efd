// samples/app-config as a Node.js program for @pulumi/pulumi (the
// differential test, ./run).
"use strict";
const crypto = require("crypto");
const pulumi = require("@pulumi/pulumi");
const { toJSON, element, lookup } = require("./lib");

const config = new pulumi.Config();
const dbPassword = config.requireSecret("dbPassword");
const apiToken = config.get("apiToken") || "dev-token-0000";
const hostname = config.get("hostname") || "shop.example.com";
const features = config.getObject("features") || ["search", "checkout", "reviews"];
const limits = config.getObject("limits") || { cpu: 2, memoryMb: 512 };
const debug = config.getBoolean("debug") || false;

const base64 = (s) => Buffer.from(s, "utf8").toString("base64");
const sha1 = (s) => crypto.createHash("sha1").update(s, "utf8").digest("hex");

const domain = hostname
  .split(".")
  .filter((label, i) => i > 0)
  .join(".");

const settings = {
  features: features.join(","),
  firstFeature: element(features, 0),
  lastFeature: element(features, -1),
  featureCount: features.length,
  logLevel: debug ? "debug" : "info",
  memory: `${lookup(limits, "memoryMb", 256)}Mi`,
  cpu: lookup(limits, "cpu", 1),
  diskGb: lookup(limits, "diskGb", 10),
  hasDisk: "diskGb" in limits,
  domain,
};

// The heredoc of main.pp: its "for" and "endfor" lines strip the line
// breaks after them, which leaves each line after the first indented by two.
const limitKeys = Object.keys(limits).sort();
const properties =
  `# Generated for ${pulumi.getStack()}; do not edit.\n` +
  limitKeys.map((k) => `  limit.${k}=${limits[k]}\n`).join("") +
  `  log.level=${debug ? "debug" : "info"}\n`;

const shards = [0, 1, 2].map((i) => `shard-${i}.${domain}`);
const ports = [8080, 8081, 8082].map((p) => `${p}`);
const token = pulumi.secret(apiToken);

const k8s = { version: "4.0.0" };
const dbCredentials = new pulumi.CustomResource(
  "kubernetes:core/v1:Secret",
  "dbCredentials",
  {
    metadata: { name: "db-credentials" },
    type: "Opaque",
    data: {
      username: base64("app"),
      password: dbPassword.apply(base64),
      url: dbPassword.apply((p) => base64(`postgres://app:${p}@db.${domain}:5432/shop`)),
    },
  },
  k8s
);

new pulumi.CustomResource(
  "kubernetes:core/v1:Secret",
  "apiCredentials",
  { metadata: { name: "api-credentials" }, stringData: { token } },
  k8s
);

new pulumi.CustomResource(
  "kubernetes:core/v1:ConfigMap",
  "appConfig",
  {
    metadata: {
      name: "app-config",
      annotations: { "example.com/settings-sha1": sha1(toJSON(settings)) },
    },
    data: {
      "settings.json": toJSON(settings),
      "app.properties": properties,
      shards: shards.join(" "),
      ports: ports.join(","),
      domainBase64: base64(domain),
      domainRoundTrip: Buffer.from(base64(domain), "base64").toString("utf8"),
    },
  },
  k8s
);

exports.settingsSha1 = sha1(toJSON(settings));
exports.shardCount = shards.length;
exports.firstShard = element(shards, 0);
exports.limitNames = limitKeys.map((k) => `limit.${k}`);
exports.databaseUrl = dbCredentials.data.apply((d) => d.url);
exports.apiToken = token;
exports.plainDomain = pulumi.unsecret(pulumi.secret(domain));
