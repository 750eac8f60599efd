# Two web servers built from one local component (./webServer): a shared
# network, then one component instance per role, each with its own security
# group and instance.  The component's outputs feed the stack outputs.

config instanceType string {
  default = "t3.micro"
}

resource network "aws:ec2/vpc:Vpc" {
  cidrBlock = "10.10.0.0/16"
  tags = {
    Name = "web-${stack()}"
  }
}

resource subnet "aws:ec2/subnet:Subnet" {
  vpcId               = network.id
  cidrBlock           = "10.10.1.0/24"
  mapPublicIpOnLaunch = true
}

component frontend "./webServer" {
  name         = "frontend"
  vpcId        = network.id
  subnetId     = subnet.id
  instanceType = instanceType
  port         = 80
}

component api "./webServer" {
  name         = "api"
  vpcId        = network.id
  subnetId     = subnet.id
  instanceType = "t3.small"
  port         = 8080
  message      = "api ready"
}

output frontendUrl {
  value = frontend.url
}

output apiUrl {
  value = api.url
}

output securityGroups {
  value = [frontend.securityGroupId, api.securityGroupId]
}
