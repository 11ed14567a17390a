resource "aws_instance" "web" {
ami="ami-123"
instance_type = "t2.micro"

ebs_block_device {
device_name="/dev/sdg"
volume_size=5
}
tags={
Name="web"
Env="prod"
}
}
