// samples/website as a Node.js program for @pulumi/pulumi (the differential
// test, ./run): the same resources, inputs, options and outputs.
"use strict";
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");
const { toJSON, element, lookup } = require("./lib");

const config = new pulumi.Config();
const siteDir = config.get("siteDir") || "www";
const indexDocument = config.get("indexDocument") || "index.html";
const errorDocument = config.get("errorDocument") || "404.html";

const contentTypes = {
  html: "text/html; charset=utf-8",
  css: "text/css",
  js: "application/javascript",
  png: "image/png",
  svg: "image/svg+xml",
  txt: "text/plain",
};

const siteFiles = fs
  .readFileSync(`${siteDir}/files.txt`, "utf8")
  .split("\n")
  .filter((line) => line.split("#")[0] !== "");

// The options a generated @pulumi/aws class would pass.
const aws = { version: "6.0.0" };

const siteBucket = new pulumi.CustomResource(
  "aws:s3/bucket:Bucket",
  "siteBucket",
  {
    forceDestroy: true,
    website: { indexDocument, errorDocument },
    tags: { Name: `site-${pulumi.getStack()}`, Project: pulumi.getProject() },
    arn: undefined,
    bucket: undefined,
    websiteEndpoint: undefined,
  },
  aws
);

const siteObjects = siteFiles.map(
  (file, i) =>
    new pulumi.CustomResource(
      "aws:s3/bucketObject:BucketObject",
      `siteObjects-${i}`,
      {
        bucket: siteBucket.id,
        key: file,
        source: new pulumi.asset.FileAsset(`${siteDir}/${file}`),
        contentType: lookup(contentTypes, element(file.split("."), -1), "application/octet-stream"),
        acl: "public-read",
      },
      aws
    )
);

new pulumi.CustomResource(
  "aws:s3/bucketPolicy:BucketPolicy",
  "bucketPolicy",
  {
    bucket: siteBucket.id,
    policy: siteBucket.arn.apply((arn) =>
      toJSON({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Principal: "*", Action: ["s3:GetObject"], Resource: [`${arn}/*`] }],
      })
    ),
  },
  aws
);

exports.bucketName = siteBucket.bucket;
exports.websiteUrl = pulumi.interpolate`http://${siteBucket.websiteEndpoint}`;
exports.objectKeys = siteObjects.map((o) => o.key);
