terraform {
  required_version = ">= 1.3, ~> 1.9"
}

output "x" {
  value = 1
}
