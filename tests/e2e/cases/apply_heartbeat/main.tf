terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

# slow blocks in apply until the file named by its value exists.
resource "misbehave_gate" "slow" {
  value = "gate"
}
