variable "v" {
  default = "one"
}

resource "terraform_data" "upd" {
  input = var.v
}

resource "terraform_data" "rep" {
  input            = "fixed"
  triggers_replace = [var.v]
}

resource "null_resource" "gone" {}

resource "null_resource" "cnt" {
  count    = 3
  triggers = { i = count.index }
}

resource "null_resource" "each" {
  for_each = toset(["a", "b", "c"])
  triggers = { k = each.key }
}

resource "null_resource" "sw" {
  count = 1
}

output "upd" {
  value = terraform_data.upd.output
}
