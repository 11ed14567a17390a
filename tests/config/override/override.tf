terraform {
  required_version = ">= 1.0"
  required_providers {
    thing = {
      source = "acme/thing2"
    }
  }
}

locals {
  greeting = "hi"
}

resource "thing_x" "a" {
  swap = "override"
  rule {
    n = 9
  }
  lifecycle {
    prevent_destroy = false
  }
  provisioner "local-exec" {
    command = "three"
  }
}

output "o" {
  sensitive = true
}
