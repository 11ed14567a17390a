variable "label" {
  type = string
}

resource "terraform_data" "host" {
  input = var.label
}

output "record" {
  value = "${terraform_data.host.output}.example"
}
