resource "terraform_data" "first" {
  input = "first"
}

module "m" {
  source     = "./mod"
  depends_on = [terraform_data.first]
}

resource "terraform_data" "last" {
  input = module.m.id
}
