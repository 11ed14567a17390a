locals {
  base = terraform_data.a.output
}
resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  count = 2
  input = "${local.base}-${count.index}"
}
resource "null_resource" "c" {
  depends_on = [terraform_data.b]
}
