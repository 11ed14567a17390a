variable "env" {
  default = "prod"
}

output "name" {
  value = "app-${var.env}"
}

output "ports" {
  value = [80, 443]
}

output "tags" {
  value = { team = "infra", env = var.env }
}

output "secret" {
  value     = "hunter2"
  sensitive = true
}
