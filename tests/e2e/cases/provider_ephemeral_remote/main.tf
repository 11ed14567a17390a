terraform {
  required_providers {
    ref = { source = "example.test/ref/fleet" }
  }
}

ephemeral "ref_token" "t" {
  device = "d1"
  renew  = true
}

# reads t after its renew time: t is renewed first
ephemeral "ref_token" "u" {
  device = ephemeral.ref_token.t.lease
}

resource "ref_entry" "e" {
  key   = "k"
  value = "v"
}
