terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

variable "name" {
  default = "gw"
}

resource "ref_device" "gw" {
  name  = var.name
  model = "x1"
}

resource "ref_entry" "owner" {
  key   = "owner"
  value = ref_device.gw.id
}
