variable "v" {
  default = "two"
}

resource "terraform_data" "upd" {
  input = var.v
}

resource "terraform_data" "rep" {
  input            = "fixed"
  triggers_replace = [var.v]
}

resource "null_resource" "cnt" {
  count    = 1
  triggers = { i = count.index }
}

resource "null_resource" "each" {
  for_each = toset(["a", "c"])
  triggers = { k = each.key }
}

resource "null_resource" "sw" {
  for_each = toset(["x"])
}

output "upd" {
  value = terraform_data.upd.output
}
