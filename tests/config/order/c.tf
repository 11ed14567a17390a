locals {
  l1 = 1
  l2 = 2
  l3 = 3
}

locals {
  l4 = 4
  l5 = 5
}

resource "terraform_data" "c1" {}
resource "terraform_data" "c2" {}
data "local_file" "c3" {
  filename = "x"
}

output "o" {
  value = local.l5
}
