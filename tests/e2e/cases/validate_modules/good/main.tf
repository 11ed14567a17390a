module "net" {
  source = "./modules/net"
  cidr   = "10.0.0.0/16"
}

module "nets" {
  source   = "./modules/net"
  for_each = toset(["a", "b"])
  cidr     = "10.1.0.0/16"
  name     = each.key
}

resource "terraform_data" "use" {
  input = [module.net.subnet, module.nets["a"].subnet]
}

output "subnet" {
  value = module.net.subnet
}
