variable "names" {
  type = list(string)
}

resource "null_resource" "a" {
  triggers = {
    x = var.missing
  }
  trigers = {}
}

resource "null_resourc" "b" {
}

resource "random_pet" "p" {
  length = "two"
  keepers = {
    id = null_resource.a.idd
  }
}

resource "random_string" "s" {
  length = var.names
  lenght = 3
}

locals {
  c = count.index
  e = each.key
  s = self.id
}

output "o" {
  value = local.nope
}

output "m" {
  value = module.net.id
}
