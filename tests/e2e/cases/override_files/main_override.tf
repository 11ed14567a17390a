variable "n" {
  default = 2
}

locals {
  greeting = "hi"
}

resource "null_resource" "b" {
  count = var.n
}

output "o" {
  sensitive = true
}
