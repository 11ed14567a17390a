module "net" {
  source = "./modules/net"
  cidrr  = "10.0.0.0/16"
}

module "other" {
  source = "./modules/net"
  cidr   = "10.2.0.0/16"
  zone   = "a"
}

output "subnet" {
  value = module.net.subnets
}

output "missing" {
  value = module.nett.subnet
}
