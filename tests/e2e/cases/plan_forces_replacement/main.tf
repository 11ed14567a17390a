variable "t" {
  default = "a"
}

resource "terraform_data" "d" {
  triggers_replace = var.t
}

resource "terraform_data" "o" {
  triggers_replace = { k = var.t }
}

resource "null_resource" "n" {
  triggers = { k = var.t }
}
