terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

resource "ref_device" "d" {
  count = 4
  name  = "d${count.index}"
  model = "x1"
}
