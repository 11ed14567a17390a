terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

resource "ref_device" "gw" {
  name  = "gw"
  model = "x1"
}
