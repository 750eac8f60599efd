# A VPC with public and private subnets spread over the region's availability
# zones: an internet gateway for the public subnets, a NAT gateway (in the
# first public subnet) for the private ones, and one route table per tier.

config cidrBlock string {
  default     = "10.0.0.0/16"
  description = "Address range of the VPC; subnets get /24 ranges inside it"
}

config publicSubnetCount int {
  default = 2
}

config privateSubnetCount int {
  default = 3
}

config "commonTags" "map(string)" {
  default = {
    owner       = "network-team"
    environment = "dev"
  }
}

zones = invoke("aws:index/getAvailabilityZones:getAvailabilityZones", {
  state = "available"
})

# The first two octets of the VPC range: subnet i is <prefix>.<i>.0/24 for
# public subnets and <prefix>.<100 + i>.0/24 for private ones.
octets = split(".", split("/", cidrBlock)[0])
prefix = "${octets[0]}.${octets[1]}"

resource vpc "aws:ec2/vpc:Vpc" {
  cidrBlock          = cidrBlock
  enableDnsHostnames = true
  enableDnsSupport   = true
  tags = {
    Name        = "main-${stack()}"
    Owner       = commonTags.owner
    Environment = lookup(commonTags, "environment", stack())
  }
}

resource publicSubnets "aws:ec2/subnet:Subnet" {
  options {
    range = publicSubnetCount
  }
  vpcId               = vpc.id
  cidrBlock           = "${prefix}.${range.value}.0/24"
  availabilityZone    = element(zones.names, range.value)
  mapPublicIpOnLaunch = true
  tags = {
    Name = "public-${range.value}"
    Tier = "public"
  }
}

resource privateSubnets "aws:ec2/subnet:Subnet" {
  options {
    range = privateSubnetCount
  }
  vpcId            = vpc.id
  cidrBlock        = "${prefix}.${100 + range.value}.0/24"
  availabilityZone = element(zones.names, range.value)
  tags = {
    Name = "private-${range.value}"
    Tier = "private"
  }
}

resource gateway "aws:ec2/internetGateway:InternetGateway" {
  vpcId = vpc.id
  tags = {
    Name = "main-gateway"
  }
}

resource natAddress "aws:ec2/eip:Eip" {
  domain = "vpc"
}

resource nat "aws:ec2/natGateway:NatGateway" {
  subnetId     = publicSubnets[0].id
  allocationId = natAddress.id
  tags = {
    Name = "main-nat"
  }
}

resource publicRoutes "aws:ec2/routeTable:RouteTable" {
  vpcId = vpc.id
  routes = [{
    cidrBlock = "0.0.0.0/0"
    gatewayId = gateway.id
  }]
}

resource privateRoutes "aws:ec2/routeTable:RouteTable" {
  vpcId = vpc.id
  routes = [{
    cidrBlock = "0.0.0.0/0"
    gatewayId = nat.id
  }]
}

resource publicAssociations "aws:ec2/routeTableAssociation:RouteTableAssociation" {
  options {
    range = publicSubnetCount
  }
  subnetId     = publicSubnets[range.value].id
  routeTableId = publicRoutes.id
}

resource privateAssociations "aws:ec2/routeTableAssociation:RouteTableAssociation" {
  options {
    range = privateSubnetCount
  }
  subnetId     = privateSubnets[range.value].id
  routeTableId = privateRoutes.id
}

output vpcId {
  value = vpc.id
}

output publicSubnetIds {
  value = [for s in publicSubnets : s.id]
}

output privateSubnets {
  value = { for s in privateSubnets : s.cidrBlock => s.availabilityZone }
}

output natPublicIp {
  value = natAddress.publicIp
}
