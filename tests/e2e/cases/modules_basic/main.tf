variable "prefix" {
  type    = string
  default = "dev"
}

module "net" {
  source = "./modules/net"
  name   = "${var.prefix}-net"
  cidrs  = ["10.0.0.0/24", "10.0.1.0/24"]
  port   = 8080
}

resource "terraform_data" "consumer" {
  input = module.net.subnet_ids
}

output "net_name" {
  value = module.net.name
}

output "port" {
  value = module.net.port
}
