module "defaults" {
  source = "./mod"
  name   = "d"
}

module "given" {
  source = "./mod"
  name   = "g"
  size   = 7
  tags   = { b = "2", a = 1 }
  strict = null
}

output "defaults" {
  value = module.defaults.summary
}

output "given" {
  value = module.given.summary
}
