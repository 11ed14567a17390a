variable "env" {
  type = string
}

module "region" {
  source = "./region"
  name   = "${var.env}-eu"
}

output "zone_record" {
  value = module.region.record
}
