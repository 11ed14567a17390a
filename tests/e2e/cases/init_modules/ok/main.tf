module "net" {
  source = "./modules/net"
}

module "app" {
  count  = 2
  source = "./shared/"
}

resource "null_resource" "root" {}
