terraform {
  backend "pg" {
  }
}

resource "terraform_data" "a" {
  input = "one-${terraform.workspace}"
}

output "a" {
  value = terraform_data.a.output
}
