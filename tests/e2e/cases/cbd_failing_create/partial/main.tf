terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

resource "misbehave_apply_partial" "p" {
  value = "p"
  lifecycle {
    create_before_destroy = true
  }
}
