variable "v" {
  bogus = 1
}

resource "null_resource" "a1" {}
resource "null_resource" "a2" {}
resource "null_resource" "a3" {}
