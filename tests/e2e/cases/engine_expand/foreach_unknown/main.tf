resource "terraform_data" "u" {}

resource "null_resource" "a" {
  for_each = toset([terraform_data.u.id])
}
