terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

variable "model" {
  default = "x1"
}

variable "name" {
  default = "gw"
}

resource "ref_device" "gw" {
  name  = var.name
  model = var.model
  tags  = { site = "lab" }
}

resource "ref_entry" "motd" {
  key   = "motd"
  value = "hello from ${ref_device.gw.id}"
}

output "serial" {
  value = ref_device.gw.serial
}
