module "ok" {
  source = "./here"
}

module "consul" {
  source = "hashicorp/consul/aws"
}
