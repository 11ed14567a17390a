variable "in" {}
resource "terraform_data" "x" {
  input = var.in
}
resource "terraform_data" "y" {
  input = "y"
}
output "out" {
  value = terraform_data.x.output
}
