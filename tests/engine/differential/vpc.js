// samples/vpc as a Node.js program for @pulumi/pulumi (the differential
// test, ./run).
"use strict";
const pulumi = require("@pulumi/pulumi");
const { element, lookup } = require("./lib");

const config = new pulumi.Config();
const cidrBlock = config.get("cidrBlock") || "10.0.0.0/16";
const publicSubnetCount = config.getNumber("publicSubnetCount") || 2;
const privateSubnetCount = config.getNumber("privateSubnetCount") || 3;
const commonTags = config.getObject("commonTags") || { owner: "network-team", environment: "dev" };

const aws = { version: "6.0.0" };
const resource = (type, name, props) => new pulumi.CustomResource(type, name, props, aws);

const zones = pulumi.output(
  pulumi.runtime.invoke("aws:index/getAvailabilityZones:getAvailabilityZones", { state: "available" }, aws)
);

const octets = cidrBlock.split("/")[0].split(".");
const prefix = `${octets[0]}.${octets[1]}`;

const vpc = resource("aws:ec2/vpc:Vpc", "vpc", {
  cidrBlock,
  enableDnsHostnames: true,
  enableDnsSupport: true,
  tags: {
    Name: `main-${pulumi.getStack()}`,
    Owner: commonTags.owner,
    Environment: lookup(commonTags, "environment", pulumi.getStack()),
  },
});

const subnet = (name, i, cidr, extra, tags) =>
  resource("aws:ec2/subnet:Subnet", name, {
    vpcId: vpc.id,
    cidrBlock: cidr,
    availabilityZone: zones.apply((z) => element(z.names, i)),
    ...extra,
    tags,
  });

const publicSubnets = [];
for (let i = 0; i < publicSubnetCount; i++) {
  publicSubnets.push(
    subnet(`publicSubnets-${i}`, i, `${prefix}.${i}.0/24`, { mapPublicIpOnLaunch: true }, {
      Name: `public-${i}`,
      Tier: "public",
    })
  );
}
const privateSubnets = [];
for (let i = 0; i < privateSubnetCount; i++) {
  privateSubnets.push(
    subnet(`privateSubnets-${i}`, i, `${prefix}.${100 + i}.0/24`, {}, { Name: `private-${i}`, Tier: "private" })
  );
}

const gateway = resource("aws:ec2/internetGateway:InternetGateway", "gateway", {
  vpcId: vpc.id,
  tags: { Name: "main-gateway" },
});
const natAddress = resource("aws:ec2/eip:Eip", "natAddress", { domain: "vpc", publicIp: undefined });
const nat = resource("aws:ec2/natGateway:NatGateway", "nat", {
  subnetId: publicSubnets[0].id,
  allocationId: natAddress.id,
  tags: { Name: "main-nat" },
});
const publicRoutes = resource("aws:ec2/routeTable:RouteTable", "publicRoutes", {
  vpcId: vpc.id,
  routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: gateway.id }],
});
const privateRoutes = resource("aws:ec2/routeTable:RouteTable", "privateRoutes", {
  vpcId: vpc.id,
  routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: nat.id }],
});
publicSubnets.forEach((s, i) =>
  resource("aws:ec2/routeTableAssociation:RouteTableAssociation", `publicAssociations-${i}`, {
    subnetId: s.id,
    routeTableId: publicRoutes.id,
  })
);
privateSubnets.forEach((s, i) =>
  resource("aws:ec2/routeTableAssociation:RouteTableAssociation", `privateAssociations-${i}`, {
    subnetId: s.id,
    routeTableId: privateRoutes.id,
  })
);

exports.vpcId = vpc.id;
exports.publicSubnetIds = publicSubnets.map((s) => s.id);
exports.privateSubnets = pulumi
  .all(privateSubnets.map((s) => pulumi.all([s.cidrBlock, s.availabilityZone])))
  .apply((pairs) => Object.fromEntries(pairs));
exports.natPublicIp = natAddress.publicIp;
