variable "name" {
  type = string
}

module "zone" {
  source = "./zone"
  label  = "${var.name}-1a"
}

output "record" {
  value = module.zone.record
}
