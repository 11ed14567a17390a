terraform {
  required_providers {
    ref = { source = "acme.test/ref/ref" }
  }
}

resource "ref_device" "d" {
  name  = "gw"
  model = "x1"
}
