terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

variable "n" {
  type    = number
  default = 7
}

output "label" { value = provider::ref::device_label("ams", var.n) }
output "more" { value = provider::ref::device_label("ams", 1, "a", "b") }
output "conv" { value = provider::ref::device_label("x", "12") }
