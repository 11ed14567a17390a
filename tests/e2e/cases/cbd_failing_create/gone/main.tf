terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

variable "fail" {
  default = false
}

resource "misbehave_ok" "r" {
  value = "r"
  fail  = var.fail
  lifecycle {
    create_before_destroy = true
  }
}
