terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

# a create that takes a minute unless the provider is asked to stop
resource "misbehave_ok" "long" {
  value    = "long"
  delay_ms = 60000
}
