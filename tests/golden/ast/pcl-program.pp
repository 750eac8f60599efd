config instanceCount int {
  default     = 2
  description = "How many servers to start"
}

config "tags" "map(string)" {
  default = {}
}

resource securityGroup "aws:ec2:SecurityGroup" {
  ingress = [{
    protocol   = "tcp"
    fromPort   = 80
    toPort     = 80
    cidrBlocks = ["0.0.0.0/0"]
  }]
}

ami = invoke("aws:index/getAmi:getAmi", {
  filters = [{
    name   = "name"
    values = ["amzn-ami-hvm-*-x86_64-ebs"]
  }]
  owners     = ["137112412505"]
  mostRecent = true
})

resource server "aws:ec2:Instance" {
  options {
    range     = instanceCount
    dependsOn = [securityGroup]
    protect   = false
  }
  tags = {
    Name = "web-server-${range.value}"
  }
  instanceType        = "t2.micro"
  securityGroups      = [securityGroup.name]
  ami                 = ami.id
  userData            = <<-EOF
    #!/bin/bash
    echo "Hello, World!" > index.html
    nohup python -m SimpleHTTPServer 80 &
  EOF
}

output publicIps {
  value = server[*].publicIp
}

output "firstHost" {
  value = server[0].publicDns
}
