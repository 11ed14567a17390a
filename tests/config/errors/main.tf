variable "x" {}
variable "x" {}

resource "null_resource" "a" {
  count    = 1
  for_each = {}
}

resource "null_resource" "a" {}

locals {
  a = 1
}
locals {
  a = 2
}

output "o" {}

variable "count" {}

widget "w" {}

variable "d" {
  type    = number
  default = "abc"
}
