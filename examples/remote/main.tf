# A remote provider: the reference provider (tests/provider/server.py), a
# small device-management API reached over HTTPS.  This file only names
# the provider's source address; where it lives (endpoint, CA, client
# certificate, token) is the host's business: see cairn.ini.example and
# docs/host-config.md.
terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

variable "site" {
  default = "lab"
}

resource "ref_device" "gateway" {
  name  = "gw-${var.site}"
  model = "x1"
  tags  = { site = var.site, role = "gateway" }

  interface {
    name = "eth0"
    mtu  = 1500
  }
}

resource "ref_device" "sensor" {
  count = 3
  name  = "sensor-${count.index}"
  model = "s2"
  tags  = { site = var.site, uplink = ref_device.gateway.id }
}

resource "ref_entry" "inventory" {
  key   = "inventory/${var.site}"
  value = join(",", ref_device.sensor[*].serial)
}

output "gateway_serial" {
  value = ref_device.gateway.serial
}
