variable "n" {
  default = 1
}

output "n" {
  value = var.n
}
