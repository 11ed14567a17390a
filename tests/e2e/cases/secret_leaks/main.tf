variable "secret" {
  type      = string
  sensitive = true
}

resource "null_resource" "n" {
  triggers = {
    s = var.secret
  }
}

output "o" {
  value     = var.secret
  sensitive = true
}
