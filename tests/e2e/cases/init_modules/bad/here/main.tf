resource "terraform_data" "t" {}
