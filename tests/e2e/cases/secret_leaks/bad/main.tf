variable "secret" {
  type      = string
  sensitive = true
}

output "n" {
  value = tonumber(var.secret)
}

output "b" {
  value = tobool(var.secret)
}

output "c" {
  value = cidrsubnet(var.secret, 8, 1)
}
