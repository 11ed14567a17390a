variable "cidr" {
  type = string
}

variable "name" {
  type    = string
  default = "main"
}

resource "terraform_data" "subnet" {
  input = cidrsubnet(var.cidr, 8, 1)
}

output "subnet" {
  value = terraform_data.subnet.output
}
