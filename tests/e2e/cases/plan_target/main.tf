resource "terraform_data" "root" {
  input = "r"
}

module "m" {
  source = "./m"
  count  = 2
  in     = terraform_data.root.output
}

resource "terraform_data" "after" {
  input = module.m[0].out
}

resource "terraform_data" "other" {
  count = 2
  input = "other-${count.index}"
}

output "o" {
  value = module.m[*].out
}

output "other" {
  value = terraform_data.other[*].output
}
