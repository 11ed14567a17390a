locals {
  a = "${local.b}-a"
  b = local.a
}

resource "terraform_data" "x" {
  input = terraform_data.y.output
}

resource "terraform_data" "y" {
  input      = "y"
  depends_on = [terraform_data.x]
}

output "a" {
  value = local.a
}
