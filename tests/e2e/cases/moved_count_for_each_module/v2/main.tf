module "new" {
  source = "./mod"
}

moved {
  from = module.old
  to   = module.new
}

output "inputs" {
  value = module.new.inputs
}
