terraform {
  backend "http" {
    update_method  = "PUT"
    retry_wait_min = 0
    retry_wait_max = 0
  }
}

variable "v" {
  type    = string
  default = "one"
}

resource "terraform_data" "a" {
  input = var.v
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

output "b" {
  value = terraform_data.b.output
}
