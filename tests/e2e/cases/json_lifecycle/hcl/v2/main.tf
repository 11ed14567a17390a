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
    ignore_changes = [triggers["v"]]
  }
}

resource "terraform_data" "rep" {
  input      = "fixed"
  depends_on = [terraform_data.a]
  lifecycle {
    replace_triggered_by = [terraform_data.a.output]
  }
}

resource "terraform_data" "new" {
  input = "kept"
}

moved {
  from = terraform_data.old
  to   = terraform_data.new
}

resource "random_string" "s" {
  for_each = toset(["a", "b"])
  length   = 5
}

import {
  for_each = toset(["a", "b"])
  to       = random_string.s[each.key]
  id       = "val-${each.key}"
}
