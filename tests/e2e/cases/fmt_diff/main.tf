variable "name" {
  type = "string"
}

resource "terraform_data" "a" {
  input = "${var.name}"
}

locals {
  one = 1
  two = 2
  three = 3
}

resource "terraform_data" "b" {
  input = local.one
}

resource "terraform_data" "c" {
  input = local.two
}

output "x" {
    value = terraform_data.a.output
}
