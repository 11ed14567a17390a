variable "v" {
  default = "1"
}

resource "terraform_data" "a" {
  input = var.v
}

resource "null_resource" "ign" {
  triggers = {
    v = var.v
  }
  lifecycle {
    ignore_changes = [triggers]
  }
}

resource "terraform_data" "rep" {
  input      = "fixed"
  depends_on = [terraform_data.a]
  lifecycle {
    replace_triggered_by = [terraform_data.a]
  }
}

resource "terraform_data" "old" {
  input = "kept"
}
