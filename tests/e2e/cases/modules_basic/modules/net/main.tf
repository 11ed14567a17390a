variable "name" {
  type = string
}

variable "cidrs" {
  type = list(string)
}

variable "port" {
  type    = string
  default = "80"
}

variable "zone" {
  type    = string
  default = "a"
}

resource "terraform_data" "subnet" {
  count = length(var.cidrs)
  input = "${var.name}:${var.cidrs[count.index]}:${var.zone}"
}

output "name" {
  value = var.name
}

output "port" {
  value = var.port
}

output "subnet_ids" {
  value = terraform_data.subnet[*].id
}

output "unused" {
  value = "only visible inside the module"
}
