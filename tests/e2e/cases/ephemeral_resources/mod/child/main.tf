variable "plain" {
  type = string
}

output "o" {
  value = var.plain
}
