output "ip" {
value=aws_instance.web.public_ip
description = "The IP"
sensitive=true
}
