module "old" {
  source = "./mod"
}

output "inputs" {
  value = module.old.inputs
}
