module "app" {
  source = "./app"
  env    = "prod"
}

resource "terraform_data" "dns" {
  input = module.app.zone_record
}

output "record" {
  value = module.app.zone_record
}
