resource "terraform_data" "u" {}

resource "null_resource" "a" {
  count = terraform_data.u.id == "" ? 1 : 2
}
