resource "null_resource" "a" {
  triggers = var.t
}
