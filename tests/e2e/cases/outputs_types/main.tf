variable "m" {
  type    = list(string)
  default = ["a", "b"]
}
output "members" {
  value = var.m
}
output "t" {
  value = ["x", "y"]
}
