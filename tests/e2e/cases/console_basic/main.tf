variable "name" {
  type    = string
  default = "world"
}
variable "n" { type = number }
variable "secret" {
  default   = "pw"
  sensitive = true
}
locals {
  greeting = "hello ${var.name}"
  a        = local.b
  b        = local.a
  list     = [for i in range(3) : i * 2]
}
resource "null_resource" "one" {}
resource "null_resource" "many" { count = 2 }
resource "null_resource" "each" { for_each = toset(["x", "y"]) }
