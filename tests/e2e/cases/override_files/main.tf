variable "n" {
  type    = number
  default = 1
}

locals {
  greeting = "hello"
}

resource "terraform_data" "a" {
  input            = local.greeting
  triggers_replace = ["x"]
}

resource "null_resource" "b" {
  count = 1
  triggers = {
    a = "1"
  }
}

output "o" {
  value = local.greeting
}
