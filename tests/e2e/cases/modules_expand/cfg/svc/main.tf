variable "name" {
  type = string
}

resource "terraform_data" "node" {
  input = var.name
}

output "name" {
  value = terraform_data.node.output
}

output "id" {
  value = terraform_data.node.id
}
