variable "v" {
  default = "one"
}

resource "terraform_data" "a" {
  input = var.v
}

output "a" {
  value = terraform_data.a.output
}
