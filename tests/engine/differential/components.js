// samples/components as a Node.js program for @pulumi/pulumi (the
// differential test, ./run): the local component ./webServer as a
// ComponentResource class, written the way Pulumi's code generator writes a
// PCL component for Node.js.
"use strict";
const pulumi = require("@pulumi/pulumi");

const aws = { version: "6.0.0" };

class WebServer extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super("components:index:WebServer", name, args, opts);
    const instanceType = args.instanceType ?? "t3.micro";
    const port = args.port ?? 80;
    const message = args.message ?? "hello";
    const child = Object.assign({ parent: this }, aws);
    const firewall = new pulumi.CustomResource(
      "aws:ec2/securityGroup:SecurityGroup",
      `${name}-firewall`,
      {
        vpcId: args.vpcId,
        description: `Allow HTTP to ${args.name}`,
        ingress: [{ protocol: "tcp", fromPort: port, toPort: port, cidrBlocks: ["0.0.0.0/0"] }],
        egress: [{ protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] }],
      },
      child
    );
    const server = new pulumi.CustomResource(
      "aws:ec2/instance:Instance",
      `${name}-server`,
      {
        ami: "ami-0abcdef1234567890",
        instanceType,
        subnetId: args.subnetId,
        vpcSecurityGroupIds: [firewall.id],
        userData: `#!/bin/sh\necho "${message}" > index.html\nnohup python3 -m http.server ${port} &\n`,
        tags: { Name: `web-${args.name}` },
        publicDns: undefined,
      },
      child
    );
    this.url = pulumi.interpolate`http://${server.publicDns}:${port}`;
    this.securityGroupId = firewall.id;
    this.registerOutputs({ url: this.url, securityGroupId: this.securityGroupId });
  }
}

const config = new pulumi.Config();
const instanceType = config.get("instanceType") || "t3.micro";

const network = new pulumi.CustomResource(
  "aws:ec2/vpc:Vpc",
  "network",
  { cidrBlock: "10.10.0.0/16", tags: { Name: `web-${pulumi.getStack()}` } },
  aws
);
const subnet = new pulumi.CustomResource(
  "aws:ec2/subnet:Subnet",
  "subnet",
  { vpcId: network.id, cidrBlock: "10.10.1.0/24", mapPublicIpOnLaunch: true },
  aws
);
const frontend = new WebServer("frontend", {
  name: "frontend",
  vpcId: network.id,
  subnetId: subnet.id,
  instanceType,
  port: 80,
});
const api = new WebServer("api", {
  name: "api",
  vpcId: network.id,
  subnetId: subnet.id,
  instanceType: "t3.small",
  port: 8080,
  message: "api ready",
});

exports.frontendUrl = frontend.url;
exports.apiUrl = api.url;
exports.securityGroups = [frontend.securityGroupId, api.securityGroupId];
