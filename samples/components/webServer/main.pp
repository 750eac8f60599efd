# A web server component: a security group that opens one port to the world
# and an instance in the given subnet that serves a greeting on that port.

config name string {
  description = "Role of the server, used in resource names"
}

config vpcId string {}

config subnetId string {}

config instanceType string {
  default = "t3.micro"
}

config port int {
  default = 80
}

config message string {
  default = "hello"
}

resource firewall "aws:ec2/securityGroup:SecurityGroup" {
  vpcId       = vpcId
  description = "Allow HTTP to ${name}"
  ingress = [{
    protocol   = "tcp"
    fromPort   = port
    toPort     = port
    cidrBlocks = ["0.0.0.0/0"]
  }]
  egress = [{
    protocol   = "-1"
    fromPort   = 0
    toPort     = 0
    cidrBlocks = ["0.0.0.0/0"]
  }]
}

resource server "aws:ec2/instance:Instance" {
  ami                 = "ami-0abcdef1234567890"
  instanceType        = instanceType
  subnetId            = subnetId
  vpcSecurityGroupIds = [firewall.id]
  userData            = <<-EOT
    #!/bin/sh
    echo "${message}" > index.html
    nohup python3 -m http.server ${port} &
  EOT
  tags = {
    Name = "web-${name}"
  }
}

output url {
  value = "http://${server.publicDns}:${port}"
}

output securityGroupId {
  value = firewall.id
}
